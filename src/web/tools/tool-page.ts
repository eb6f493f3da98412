/**
 * `/tools/{id}`: the tool's form with its first example filled in, a Run button, the output, the
 * other examples, and — for tools with a public endpoint — the same call as curl. The run happens
 * in this browser; nothing is uploaded.
 */
import type { ToolFile, ToolMeta } from '../../tools/types.js';
import { busy, errorText, fill, h, notice } from '../dashboard/dom.js';
import { toolGroups } from './catalogue.js';
import { buildForm } from './form.js';
import { filesOf, releaseUrls, renderOutput, zipButton } from './output.js';
import { runTool, StoppedError } from './run.js';

function curlExample(meta: ToolMeta): string {
  const example = meta.examples[0]?.input ?? {};
  const body = JSON.stringify(example, (_key, value: unknown) => (typeof value === 'string' && value.length > 120 ? `${value.slice(0, 40)}…(Base64)` : value));
  return `curl -X POST ${location.origin}/api/tools/${meta.id} \\\n  -H 'content-type: application/json' \\\n  -d '${body.replace(/'/g, "'\\''")}'`;
}

export function renderToolPage(main: HTMLElement, meta: ToolMeta): void {
  document.title = `${meta.name} — free tool — Groundwork`;
  const group = toolGroups.find((g) => g.id === meta.group);
  const form = buildForm(meta);
  const output = h('div', { class: 'tool-output', id: 'tool-output', 'aria-live': 'polite' });
  const progress = h('progress', { max: 1, hidden: true, 'aria-label': 'Progress' });
  const runButton = h('button', { type: 'submit', id: 'run-tool' }, 'Run');
  const stopButton = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Stop');
  let stopCurrent: () => void = () => undefined;
  stopButton.addEventListener('click', () => stopCurrent());

  // `data-state` (running, done, error) lets scripts and tests wait for a run to end.
  const showError = (error: unknown): void => {
    output.dataset.state = 'error';
    if (error instanceof StoppedError) output.replaceChildren(notice('info', 'Stopped.'));
    else output.replaceChildren(notice('error', errorText(error)));
  };

  const runOnce = async (input: Record<string, unknown>): Promise<unknown> => {
    const handle = runTool(meta, input, (fraction, label) => {
      progress.hidden = false;
      progress.value = fraction;
      progress.textContent = label ?? `${Math.round(fraction * 100)}%`;
    });
    stopCurrent = handle.stop;
    return handle.result;
  };

  /** Several files in the batch field: the tool runs on each; all outputs come as one ZIP. */
  const runBatch = async (input: Record<string, unknown>, files: File[]): Promise<void> => {
    const field = meta.batchField as string;
    const outputs: ToolFile[] = [];
    const failures: string[] = [];
    for (const [i, file] of files.entries()) {
      output.replaceChildren(notice('info', `Working on ${file.name} (${i + 1} of ${files.length})…`));
      try {
        const result = await runOnce({ ...input, [field]: new Uint8Array(await file.arrayBuffer()) });
        outputs.push(...filesOf(result));
      } catch (error) {
        if (error instanceof StoppedError) throw error;
        failures.push(`${file.name}: ${errorText(error)}`);
      }
    }
    fill(output,
      notice(failures.length ? 'warn' : 'ok', `${outputs.length} of ${files.length} files done.`),
      ...failures.map((f) => notice('error', f)),
      renderOutput({ files: outputs }, `${meta.id}.zip`)[0] ?? '',
      outputs.length > 1 ? zipButton(outputs, `${meta.id}.zip`) : '',
    );
  };

  const formEl = h('form', { class: 'card', novalidate: true }, form.element, h('div', { class: 'row' }, runButton, stopButton), progress);
  formEl.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(runButton, async () => {
      releaseUrls();
      stopButton.hidden = false;
      progress.hidden = true;
      output.replaceChildren(notice('info', 'Working…'));
      output.dataset.state = 'running';
      try {
        const input = await form.read();
        const batch = form.batchFiles();
        if (meta.batchField && batch.length > 1) await runBatch(input, batch);
        else output.replaceChildren(...renderOutput(await runOnce(input), `${meta.id}.zip`));
        output.dataset.state = 'done';
      } catch (error) {
        showError(error);
      } finally {
        stopButton.hidden = true;
        progress.hidden = true;
      }
    });
  });

  const examples = meta.examples.map((example) => {
    const button = h('button', { type: 'button', class: 'secondary small' }, example.title);
    button.addEventListener('click', () => {
      form.fill(example.input);
      output.replaceChildren();
    });
    return button;
  });

  fill(main, 
    h('p', { class: 'small' }, h('a', { href: '/tools' }, 'All tools'), group ? ` · ${group.name}` : ''),
    h('h1', {}, meta.name),
    h('p', {}, meta.description),
    h('p', {}, h('span', { class: 'privacy', id: 'privacy-note' }, 'Runs in your browser — your files never leave your device.')),
    meta.batchField ? h('p', { class: 'muted small' }, 'Choose several files to process them all at once and download the results as one ZIP.') : null,
    h('div', { class: 'cols' }, h('section', { 'aria-label': 'Input' }, formEl, meta.examples.length > 1 ? h('div', { class: 'card' }, h('h2', {}, 'Examples'), h('div', { class: 'tool-examples' }, examples)) : null), h('section', { 'aria-labelledby': 'output-heading', class: 'card' }, h('h2', { id: 'output-heading' }, 'Output'), output)),
    meta.api
      ? h('section', { class: 'card', 'aria-labelledby': 'api-heading' }, h('h2', { id: 'api-heading' }, 'API'), h('p', {}, 'The same tool runs on our server as a free JSON endpoint (limited per IP). Files go as Base64. Only calls you make yourself send data to the server.'), h('pre', { class: 'snippet' }, curlExample(meta)), h('p', { class: 'small' }, h('a', { href: '/docs' }, 'API reference'), ' · ', h('a', { href: '/api/tools' }, 'Catalogue as JSON')))
      : h('p', { class: 'muted small' }, 'This tool runs only in the browser; it has no server endpoint.'),
  );
  form.fill(meta.examples[0]?.input ?? {});
}
