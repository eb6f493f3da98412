/**
 * The widget's stylesheet, inside its shadow root. `:host { all: initial !important }`
 * neutralises page rules on the host element (in the cascade, important
 * declarations of the inner context win), so inherited fonts, colours and
 * transforms of the page cannot reach in; only custom properties cross —
 * that is the theming interface (`--gw-*`, docs/widget.md).
 */
export const css = `
:host{all:initial!important}
.r{--a:var(--gw-accent,var(--_a,#2563eb));--at:var(--gw-accent-text,var(--_at,#fff));--bg:var(--gw-bg,#fff);--fg:var(--gw-fg,#111827);--mu:var(--gw-muted,#4b5563);--bd:var(--gw-border,#d1d5db);--bu:var(--gw-bubble,#f3f4f6);--o:var(--gw-offset,20px);
font:400 15px/1.45 var(--gw-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--fg);text-align:left;letter-spacing:normal;word-spacing:normal;text-transform:none;text-indent:0;white-space:normal;visibility:visible;cursor:auto;direction:ltr}
.r.dark{--bg:var(--gw-bg,#111827);--fg:var(--gw-fg,#f3f4f6);--mu:var(--gw-muted,#9ca3af);--bd:var(--gw-border,#374151);--bu:var(--gw-bubble,#1f2937)}
@media (prefers-color-scheme:dark){.r.auto{--bg:var(--gw-bg,#111827);--fg:var(--gw-fg,#f3f4f6);--mu:var(--gw-muted,#9ca3af);--bd:var(--gw-border,#374151);--bu:var(--gw-bubble,#1f2937)}}
*{box-sizing:border-box;margin:0;font:inherit;color:inherit}
[hidden]{display:none!important}
button{cursor:pointer;border:0;background:none;padding:0}
button:disabled{cursor:not-allowed;opacity:.6}
:focus-visible{outline:3px solid var(--a);outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.l{position:fixed;z-index:var(--gw-z,2147483000);bottom:var(--o);right:var(--o);width:56px;height:56px;border-radius:50%;background:var(--a);color:var(--at);display:grid;place-items:center;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.l svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.l[aria-expanded=true] .i1,.l[aria-expanded=false] .i2{display:none}
.left .l{right:auto;left:var(--o)}
.p{position:fixed;z-index:var(--gw-z,2147483000);bottom:calc(var(--o) + 68px);right:var(--o);width:min(var(--gw-width,380px),calc(100vw - 2*var(--o)));height:min(var(--gw-height,560px),calc(100vh - var(--o) - 88px));display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:var(--gw-radius,14px);box-shadow:0 12px 32px rgba(0,0,0,.22);overflow:hidden;animation:gw-in .16s ease-out}
.left .p{right:auto;left:var(--o)}
@keyframes gw-in{from{opacity:0;transform:translateY(8px)}}
.h{display:flex;align-items:center;gap:8px;padding:12px 12px 12px 16px;background:var(--a);color:var(--at)}
.h h2{flex:1;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.h :focus-visible{outline-color:currentColor;outline-offset:-4px}
.x{width:32px;height:32px;border-radius:8px;font-size:22px;line-height:1}
.g{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px;scroll-behavior:smooth}
.m{max-width:88%;padding:9px 12px;border-radius:12px;background:var(--bu);white-space:pre-wrap;overflow-wrap:anywhere}
.m.u{align-self:flex-end;background:var(--a);color:var(--at)}
.m.e{border:1px solid #b91c1c;background:var(--bg)}
.n{display:block}
.n:not(:first-child){margin-top:6px;font-style:italic;color:var(--mu)}
.c{display:inline-block;min-width:22px;margin:0 1px;padding:0 5px;border-radius:6px;background:var(--a);color:var(--at);font-size:12px;font-weight:600;line-height:18px;vertical-align:1px}
.s{margin-top:8px;padding:0;list-style:none;font-size:13px;white-space:normal}
.s li{margin-top:4px}
.s summary{cursor:pointer;color:var(--fg);font-weight:600}
.s p{margin:4px 0 0;padding:6px 8px;border-left:3px solid var(--a);background:var(--bg);white-space:pre-wrap}
.o{display:flex;flex-wrap:wrap;gap:6px;margin-top:8px;white-space:normal}
.o span{width:100%;font-size:13px;color:var(--mu)}
.k{padding:4px 10px;border:1px solid var(--a);border-radius:12px;background:var(--bg);color:var(--fg);font-size:13px;text-align:left}
.y{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin-top:8px;font-size:13px;color:var(--mu);white-space:normal}
.y .w{width:100%;color:var(--fg);white-space:pre-wrap}
.y button{padding:2px 10px;border:1px solid var(--bd);border-radius:12px;background:var(--bg);color:var(--fg)}
.t{color:var(--mu);animation:gw-b 1.2s ease-in-out infinite}
@keyframes gw-b{50%{opacity:.35}}
.f{display:flex;gap:8px;padding:10px;border-top:1px solid var(--bd)}
textarea{flex:1;resize:none;height:42px;max-height:120px;padding:10px;border:1px solid var(--bd);border-radius:10px;background:var(--bg);color:var(--fg)}
textarea::placeholder{color:var(--mu);opacity:1}
.sd{padding:0 14px;border-radius:10px;background:var(--a);color:var(--at);font-weight:600}
@media (max-width:480px){.p,.left .p{inset:0;width:auto;height:auto;border-radius:0;border:0}}
@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
`;
