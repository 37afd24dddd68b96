/** The one stylesheet of the web pages (served at /assets/site.css). */
export const STYLESHEET = `:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fbfbfc;--muted:#5b6470;--accent:#1f5fbf;--line:#d6dae0;--bad:#b3261e;--on-accent:#fff}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--bg:#15181c;--muted:#a0a8b3;--accent:#7aa7ff;--line:#333a43;--bad:#ff8a80;--on-accent:#0d1420}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header.site{padding:.75rem 1.25rem;border-bottom:1px solid var(--line)}.brand{font-weight:700}
main{max-width:44rem;margin:2rem auto;padding:0 1.25rem}h1{font-size:1.5rem}
form.stack{display:grid;gap:.9rem;max-width:26rem}label{display:grid;gap:.25rem;font-weight:600}
input,select{font:inherit;padding:.5rem .6rem;border:1px solid var(--line);border-radius:6px;background:transparent;color:inherit}
button{font:inherit;padding:.55rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.alert{padding:.6rem .8rem;border:1px solid var(--bad);color:var(--bad);border-radius:6px}.muted{color:var(--muted)}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid var(--line)}
label.check{display:flex;gap:.5rem;align-items:center;font-weight:400}fieldset{border:1px solid var(--line);border-radius:6px;display:grid;gap:.4rem}
code.secret{display:block;padding:.6rem;border:1px dashed var(--line);word-break:break-all}a{color:var(--accent)}
`;
