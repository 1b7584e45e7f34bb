/** A fence line: three or more backticks or tildes, indented at most three spaces (CommonMark). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** The destination of an inline link or image that starts at the site root (`](/guides/x)`), not `](//host)`. */
const SITE_LINK = /\]\(\/(?!\/)/g;

/**
 * A guide's markdown with every inline link to a page of this site (`[text](/guides/x)`) made
 * absolute on the public base URL, so an agent that quotes or follows a link gets an address that
 * works outside the site. Fenced code blocks are copied as they are: a `](/` there is code, not a link.
 */
export function absoluteSiteLinks(markdown: string, baseUrl: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence === undefined) {
        if (marker) {
          fence = marker;
          return line;
        }
        return line.replace(SITE_LINK, `](${baseUrl}/`);
      }
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      return line;
    })
    .join('\n');
}
