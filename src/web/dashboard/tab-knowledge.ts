/**
 * Knowledge tab: upload files (drag and drop or picker, real progress from
 * XMLHttpRequest), paste text, import a web page or sitemap, the per-upload
 * report, records with search and delete, sources with delete, the owner's synonyms.
 */
import type { ImportReport, KnowledgeRecord, Source, SourceFormat, UploadReport } from '../../sdk/management.js';
import { ApiError, api, pending } from './api.js';
import { busy, confirmDialog, errorText, field, fill, formatBytes, formatDate, h, notice, toast } from './dom.js';
import type { TabContext } from './kb.js';
import { synonymsCard } from './synonyms-card.js';

const accepted = ['.json', '.jsonl', '.ndjson', '.txt', '.md', '.markdown', '.csv', '.pdf', '.html', '.htm'];

function problemText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'quota_exceeded') {
    const needed = error.body.needed;
    const available = error.body.available;
    if (typeof needed === 'number' && typeof available === 'number') {
      return `Nothing was stored: this upload has ${needed} new records but only ${available} slots are free. Delete records or split the file.`;
    }
  }
  return errorText(error);
}

export async function knowledgeTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  let records: KnowledgeRecord[] = [];
  let sources: Source[] = [];

  // ---- Report (shared by uploads and pastes)
  const report = h('section', { class: 'card report', 'aria-labelledby': 'report-title', hidden: true });
  const reportLive = h('div', { 'aria-live': 'polite' });
  function showReport(name: string, result: UploadReport): void {
    report.hidden = false;
    const items = result.items;
    fill(
      report,
      h('h2', { id: 'report-title' }, `Report: ${name}`),
      h(
        'dl',
        {},
        h('div', {}, h('dt', {}, 'Added'), h('dd', { 'data-testid': 'report-added' }, result.added)),
        h('div', {}, h('dt', {}, 'Duplicates'), h('dd', { 'data-testid': 'report-duplicate' }, result.duplicate)),
        h('div', {}, h('dt', {}, 'Rejected'), h('dd', { 'data-testid': 'report-rejected' }, result.rejected)),
        h('div', {}, h('dt', {}, 'Quota used'), h('dd', {}, `${result.quota.used} / ${result.quota.limit}`)),
      ),
      result.duplicate ? h('p', { class: 'muted small' }, 'Duplicates are records you already have (same text): they use no quota.') : null,
      result.rejections.length
        ? h('div', {}, h('h3', {}, 'Rejected'), h('ul', {}, result.rejections.map((r) => h('li', {}, h('strong', {}, r.at), ': ', r.reason))))
        : null,
      items.length
        ? h(
            'details',
            {},
            h('summary', {}, `Show the ${items.length} extracted ${items.length === 1 ? 'item' : 'items'}`),
            h(
              'ul',
              { class: 'list' },
              items.map((item) =>
                h(
                  'li',
                  {},
                  h('div', { class: 'body' }, item.title ? h('strong', {}, item.title) : null, h('p', { class: 'record-text small' }, item.preview)),
                  h('span', { class: item.status === 'added' ? 'badge ok' : 'badge' }, item.status),
                ),
              ),
            ),
          )
        : null,
    );
    reportLive.textContent = `${name}: ${result.added} added, ${result.duplicate} duplicates, ${result.rejected} rejected.`;
  }
  function showFailure(name: string, error: unknown): void {
    report.hidden = false;
    report.replaceChildren(h('h2', { id: 'report-title' }, `Report: ${name}`), notice('error', problemText(error)));
  }

  async function afterChange(): Promise<void> {
    await Promise.all([loadRecords(), ctx.refreshKb()]);
  }

  // ---- Upload
  const fileInput = h('input', { type: 'file', id: 'file-input', tabindex: -1, accept: accepted.join(','), multiple: true, class: 'sr-only' });
  const pick = h('label', { for: 'file-input', class: 'button secondary', role: 'button' }, 'Choose files');
  const progressLabel = h('span', { id: 'upload-label', class: 'small' }, '');
  const progress = h('progress', { max: 100, value: 0, 'aria-labelledby': 'upload-label' });
  const progressWrap = h('div', { class: 'upload', hidden: true }, progressLabel, progress);
  const drop = h(
    'div',
    { class: 'dropzone', 'data-testid': 'dropzone' },
    h('p', {}, h('strong', {}, 'Drop files here'), ' or'),
    h('p', {}, pick),
    h('p', { class: 'hint' }, `.json, .jsonl, .txt, .md, .csv, .pdf or .html — up to 10 MB each.`),
  );
  // Keyboard users reach the picker through its label; make the label focusable and key-operable.
  pick.tabIndex = 0;
  pick.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      fileInput.click();
    }
  });

  let queue: Promise<void> = Promise.resolve();
  function uploadFiles(files: File[]): void {
    for (const file of files) {
      queue = queue.then(() => uploadOne(file));
    }
  }
  async function uploadOne(file: File): Promise<void> {
    const lower = file.name.toLowerCase();
    if (!accepted.some((ext) => lower.endsWith(ext))) {
      showFailure(file.name, new Error(`“${file.name}” is not a .json, .jsonl, .txt, .md, .csv, .pdf or .html file.`));
      return;
    }
    progressWrap.hidden = false;
    progress.value = 0;
    progress.removeAttribute('data-done');
    progressLabel.textContent = `Uploading ${file.name}… 0%`;
    try {
      const result = await api.upload(ragId, file, file.name, ({ loaded, total }) => {
        const percent = total ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
        progress.value = percent;
        progressLabel.textContent = percent >= 100 ? `Processing ${file.name}…` : `Uploading ${file.name}… ${percent}%`;
      });
      progress.value = 100;
      progress.setAttribute('data-done', 'true');
      progressLabel.textContent = `Uploaded ${file.name} (${formatBytes(file.size)})`;
      showReport(file.name, result);
      await afterChange();
    } catch (error) {
      progressLabel.textContent = `Upload of ${file.name} failed`;
      showFailure(file.name, error);
    }
  }
  fileInput.addEventListener('change', () => {
    uploadFiles([...(fileInput.files ?? [])]);
    fileInput.value = '';
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    uploadFiles([...(event.dataTransfer?.files ?? [])]);
  });

  // ---- Paste
  const pasteName = h('input', { type: 'text', name: 'name', required: true, maxlength: 200, placeholder: 'Opening hours' });
  const pasteFormat = h(
    'select',
    { name: 'format' },
    h('option', { value: 'txt' }, 'Plain text (paragraphs, Q:/A:)'),
    h('option', { value: 'md' }, 'Markdown (one record per section)'),
    h('option', { value: 'json' }, 'JSON'),
    h('option', { value: 'jsonl' }, 'JSON Lines'),
  );
  const pasteText = h('textarea', { name: 'text', required: true, rows: 8, placeholder: 'Q: How long does delivery take?\nA: Three to five working days.' });
  const pasteSubmit = h('button', { type: 'submit' }, 'Add to knowledge');
  const pasteError = h('div', { 'aria-live': 'assertive' });
  const pasteForm = h(
    'form',
    { id: 'paste-form' },
    field('Name', pasteName, 'Listed as the source of these records.'),
    field('Format', pasteFormat),
    field('Text', pasteText),
    pasteSubmit,
    pasteError,
  );
  pasteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    pasteError.replaceChildren();
    const name = pasteName.value.trim();
    if (!name || !pasteText.value.trim()) {
      pasteError.replaceChildren(notice('error', 'Give the snippet a name and some text.'));
      return;
    }
    void busy(pasteSubmit, async () => {
      try {
        const result = await api.paste(ragId, { name, text: pasteText.value, format: pasteFormat.value as SourceFormat });
        showReport(name, result);
        pasteText.value = '';
        pasteName.value = '';
        await afterChange();
      } catch (error) {
        showFailure(name, error);
      }
    });
  });

  // ---- Import from a website
  const importUrl = h('input', {
    type: 'url',
    name: 'url',
    required: true,
    maxlength: 2048,
    placeholder: 'https://shop.example/sitemap.xml',
    autocomplete: 'url',
    'data-testid': 'import-url',
  });
  const importSubmit = h('button', { type: 'submit' }, 'Import');
  const importResult = h('div', { 'aria-live': 'polite', 'data-testid': 'import-result' });
  const importForm = h(
    'form',
    { id: 'import-form' },
    field('Page or sitemap URL', importUrl, 'One page, or a sitemap.xml: each page on the same site becomes a source. Importing again updates changed pages only.'),
    importSubmit,
    importResult,
  );
  const statusClass: Record<ImportReport['pages'][number]['status'], string> = {
    added: 'badge ok',
    updated: 'badge ok',
    unchanged: 'badge',
    skipped: 'badge',
    failed: 'badge warn',
  };
  function showImport(result: ImportReport): void {
    const t = result.totals;
    const summary = `${t.pages} ${t.pages === 1 ? 'page' : 'pages'}: ${t.added} added, ${t.updated} updated, ${t.unchanged} unchanged, ${t.skipped} skipped, ${t.failed} failed · ${t.recordsAdded} records added, ${t.recordsRemoved} removed.`;
    const ignored = result.ignored.otherHost + result.ignored.overLimit;
    fill(
      importResult,
      notice(t.failed ? 'warn' : 'ok', h('span', { 'data-testid': 'import-summary' }, summary)),
      ignored
        ? h('p', { class: 'muted small' }, `Not fetched: ${result.ignored.otherHost} on other sites, ${result.ignored.overLimit} over the page limit.`)
        : null,
      result.notInSitemap.length
        ? h(
            'p',
            { class: 'muted small' },
            `No longer in the sitemap, kept: ${result.notInSitemap.map((s) => s.sourceName).join(', ')}. Delete them below if they should go.`,
          )
        : null,
      result.pages.length
        ? h(
            'ul',
            { class: 'list', 'data-testid': 'import-pages' },
            result.pages.map((page) =>
              h(
                'li',
                {},
                h(
                  'div',
                  { class: 'body' },
                  h('strong', {}, page.title ?? page.url),
                  page.title ? h('p', { class: 'muted small' }, page.url) : null,
                  page.reason ? h('p', { class: 'small' }, page.reason) : null,
                  page.status === 'added' || page.status === 'updated'
                    ? h('p', { class: 'small' }, `${page.records.added} added, ${page.records.removed} removed, ${page.records.kept} kept, ${page.records.duplicate} duplicates`)
                    : null,
                ),
                h('span', { class: statusClass[page.status] }, page.status),
              ),
            ),
          )
        : null,
    );
  }
  importForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const url = importUrl.value.trim();
    if (!url) {
      fill(importResult, notice('error', 'Enter the address of a page or a sitemap, starting with https://.'));
      return;
    }
    fill(importResult, h('p', { class: 'muted small' }, `Importing ${url}… this can take a minute for a large sitemap.`));
    void busy(importSubmit, async () => {
      try {
        showImport(await api.importUrl(ragId, url));
        await afterChange();
      } catch (error) {
        fill(importResult, notice('error', problemText(error)));
      }
    });
  });

  // ---- Records
  const search = h('input', { type: 'search', placeholder: 'Search titles and text', autocomplete: 'off' });
  const count = h('p', { class: 'muted small', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list', 'data-testid': 'records' });
  function renderRecords(): void {
    const term = search.value.trim().toLowerCase();
    const names = new Map(sources.map((s) => [s.sourceId, s.sourceName]));
    const shown = term ? records.filter((r) => `${r.title ?? ''}\n${r.text}`.toLowerCase().includes(term)) : records;
    count.textContent = term ? `${shown.length} of ${records.length} records match.` : `${records.length} ${records.length === 1 ? 'record' : 'records'}.`;
    list.replaceChildren(
      ...shown.map((record) => {
        const label = record.title ?? record.text.slice(0, 40);
        const del = h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete record “${label}”` }, 'Delete');
        del.addEventListener('click', async () => {
          if (!(await confirmDialog('Delete this record?', label, 'Delete record'))) return;
          try {
            await api.deleteRecord(ragId, record.recordId);
            toast('Record deleted.');
            await afterChange();
          } catch (e) {
            toast(errorText(e));
          }
        });
        return h(
          'li',
          {},
          h(
            'div',
            { class: 'body' },
            h('div', { class: 'row' }, h('span', { class: 'badge' }, record.kind), record.title ? h('strong', {}, record.title) : null),
            h('p', { class: 'record-text' }, record.text),
            h('p', { class: 'muted small' }, `From ${names.get(record.sourceId) ?? 'a deleted source'} · ${formatDate(record.createdAt)}`),
          ),
          del,
        );
      }),
    );
    if (!records.length) list.replaceChildren(h('li', { class: 'muted' }, 'No records yet: upload a file or paste text above.'));
  }
  search.addEventListener('input', renderRecords);

  // ---- Sources
  const sourcesBody = h('tbody');
  const sourcesTable = h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, 'Sources'),
      h(
        'thead',
        {},
        h('tr', {}, ['Name', 'Format', 'Size', 'Added', 'Duplicates', 'Rejected', 'Uploaded', ''].map((t) => h('th', { scope: 'col' }, t || h('span', { class: 'sr-only' }, 'Actions')))),
      ),
      sourcesBody,
    ),
  );
  function renderSources(): void {
    if (!sources.length) {
      sourcesBody.replaceChildren(h('tr', {}, h('td', { colspan: 8, class: 'muted' }, 'No sources yet.')));
      return;
    }
    sourcesBody.replaceChildren(
      ...sources.map((source) => {
        const del = h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete source ${source.sourceName}` }, 'Delete');
        del.addEventListener('click', async () => {
          const ok = await confirmDialog(`Delete “${source.sourceName}”?`, `Its ${source.addedCount} records are deleted with it.`, 'Delete source');
          if (!ok) return;
          try {
            await api.deleteSource(ragId, source.sourceId);
            toast('Source deleted.');
            await afterChange();
          } catch (e) {
            toast(errorText(e));
          }
        });
        return h(
          'tr',
          {},
          h(
            'td',
            {},
            source.sourceName,
            // Imported pages show where they came from (http(s) only: the server stores nothing else).
            source.url && /^https?:\/\//.test(source.url)
              ? h('div', { class: 'muted small' }, h('a', { href: source.url, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'source-url' }, source.url))
              : null,
          ),
          h('td', {}, source.format),
          h('td', {}, formatBytes(source.byteSize)),
          h('td', {}, source.addedCount),
          h('td', {}, source.duplicateCount),
          h('td', {}, source.rejectedCount),
          h('td', {}, formatDate(source.createdAt)),
          h('td', {}, del),
        );
      }),
    );
  }

  async function loadRecords(): Promise<void> {
    const [allRecords, sourcePage] = await Promise.all([api.allRecords(ragId), api.listSources(ragId)]);
    records = allRecords;
    sources = sourcePage.items;
    renderRecords();
    renderSources();
  }

  const synonyms = synonymsCard(ctx);
  panel.append(
    h(
      'div',
      { class: 'cols' },
      h('section', { class: 'card', 'aria-labelledby': 'upload-title' }, h('h2', { id: 'upload-title' }, 'Upload files'), fileInput, drop, progressWrap),
      h('section', { class: 'card', 'aria-labelledby': 'paste-title' }, h('h2', { id: 'paste-title' }, 'Paste text'), pasteForm),
    ),
    h('section', { class: 'card', 'aria-labelledby': 'import-title' }, h('h2', { id: 'import-title' }, 'Import from a website'), importForm),
    reportLive,
    report,
    h('section', { class: 'card', 'aria-labelledby': 'records-title' }, h('h2', { id: 'records-title' }, 'Records'), field('Search records', search), count, list),
    h('section', { class: 'card', 'aria-labelledby': 'sources-title' }, h('h2', { id: 'sources-title' }, 'Sources'), sourcesTable),
    synonyms.section,
  );
  reportLive.className = 'sr-only';

  if (pending.paste) {
    pasteName.value = pending.paste.name;
    pasteText.value = pending.paste.text;
    pending.paste = undefined;
    pasteText.focus();
    pasteText.setSelectionRange(pasteText.value.length, pasteText.value.length);
    pasteText.scrollIntoView({ block: 'center' });
  }
  await loadRecords();
  synonyms.showPending();
}
