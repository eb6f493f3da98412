/**
 * The widget preview page, framed by the dashboard's Widget tab: loads
 * `/widget.js` with the settings passed in the URL fragment (the fragment
 * never reaches the server or its logs, so the key stays in the browser).
 */
const params = new URLSearchParams(location.hash.slice(1));
const status = document.getElementById('preview-status');
const ragId = params.get('rag');
const key = params.get('key');
if (params.get('scheme') === 'dark' || params.get('scheme') === 'light') document.documentElement.style.colorScheme = params.get('scheme') ?? '';
if (!ragId || !key) {
  if (status) status.textContent = 'Choose or paste a key to see the live widget.';
} else {
  const script = document.createElement('script');
  script.src = '/widget.js';
  script.async = true;
  script.dataset.ragId = ragId;
  script.dataset.apiKey = key;
  const accent = params.get('accent');
  const position = params.get('position');
  const scheme = params.get('scheme');
  if (accent) script.dataset.accent = accent;
  if (position) script.dataset.position = position;
  if (scheme) script.dataset.colorScheme = scheme;
  script.onload = () => {
    // Open the panel so the preview shows the conversation, not only the launcher; without taking
    // the focus, which stays where the dashboard put it.
    (window as { GroundworkWidget?: { open?: (options?: { focus?: boolean }) => void } }).GroundworkWidget?.open?.({ focus: false });
  };
  // A refused key shows no widget at all (the widget warns in the console): say so here too.
  document.addEventListener('groundwork:error', (event) => {
    const detail = (event as CustomEvent<{ phase?: string; status?: number }>).detail;
    if (detail?.phase !== 'config' || (detail.status !== 401 && detail.status !== 403) || !status) return;
    status.textContent =
      detail.status === 403
        ? `The widget does not start here: this key's whitelist does not include ${location.hostname}.`
        : 'The widget does not start here: the key is not a live key of this knowledge base.';
  });
  script.onerror = () => {
    if (status) status.textContent = 'The widget script could not be loaded.';
  };
  document.body.append(script);
}
