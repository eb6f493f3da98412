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
    // Open the panel so the preview shows the conversation, not only the launcher.
    (window as { GroundworkWidget?: { open?: () => void } }).GroundworkWidget?.open?.();
  };
  script.onerror = () => {
    if (status) status.textContent = 'The widget script could not be loaded.';
  };
  document.body.append(script);
}
