/** The one stylesheet: readable text, real tables, works from a phone to a desktop, light and dark. */
export const SITE_CSS = `:root{color-scheme:light dark;--fg:#1c1f24;--muted:#5b6370;--bg:#fff;--line:#dde1e6;--accent:#0b5cad;--soft:#f4f6f8}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#a3abb6;--bg:#121417;--line:#2c3138;--accent:#7ab8ff;--soft:#1b1f24}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
a{color:var(--accent)}
header.site,footer.site,main{max-width:52rem;margin:0 auto;padding:0 1rem}
header.site{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;align-items:baseline;padding-top:1rem;padding-bottom:.75rem;border-bottom:1px solid var(--line)}
header.site .brand{font-weight:700;text-decoration:none;color:var(--fg);margin-right:auto}
header.site nav{display:flex;flex-wrap:wrap;gap:1rem}
main{padding-top:1rem;padding-bottom:2rem}
h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0}
h2{font-size:1.35rem;margin-top:2rem}
.meta,.lead{color:var(--muted)}
.lead{font-size:1.1rem}
.table-wrap{overflow-x:auto;margin:1rem 0}
.table-wrap:focus{outline:2px solid var(--accent)}
.scroll-hint{color:var(--muted);font-size:.9rem;margin-bottom:0}
@media (min-width:70rem){.scroll-hint{display:none}}
@media (min-width:52rem){.scroll-hint.compact{display:none}}
table.plans td,table.plans th{white-space:nowrap}
nav.sorts a{margin-right:.5rem}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{border-bottom:1px solid var(--line);padding:.45rem .6rem;text-align:left;vertical-align:top}
th{background:var(--soft)}
td.num,th.num{text-align:right;white-space:nowrap}
pre{background:var(--soft);padding:.75rem;overflow-x:auto;border-radius:4px}
code{font-size:.9em}
ul.plain{list-style:none;padding-left:0}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.pill{display:inline-block;background:var(--soft);border:1px solid var(--line);border-radius:999px;padding:0 .6rem;font-size:.85rem}
footer.site{border-top:1px solid var(--line);padding-top:.75rem;padding-bottom:2rem;color:var(--muted);font-size:.9rem}
`;
