declare module 'swagger-ui-dist/absolute-path.js' {
  /** The directory swagger-ui-dist's files are in. */
  export default function getAbsoluteFSPath(): string;
}
