/**
 * Markdown to HTML with marked, made safe without a DOM sanitiser: raw HTML in the Markdown is
 * shown as text (escaped), and links or images with other schemes than http(s), mailto or a
 * relative address lose their address.
 */
import { Marked, type Tokens } from 'marked';
import { isSafeUrl } from './safe-url.js';

export interface MarkdownPreviewInput {
  markdown: string;
  gfm?: boolean;
  breaks?: boolean;
}

export interface MarkdownPreviewOutput {
  html: string;
  result: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function markdown(gfm: boolean, breaks: boolean): Marked {
  const instance = new Marked({ gfm, breaks, async: false });
  instance.use({
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
      // Returning false hands a safe link or image back to marked's own renderer.
      link({ href, tokens }: Tokens.Link) {
        return isSafeUrl(href) ? false : this.parser.parseInline(tokens);
      },
      image({ href, text }: Tokens.Image) {
        return isSafeUrl(href) ? false : escapeHtml(text);
      },
    },
  });
  return instance;
}

export function run(input: MarkdownPreviewInput): MarkdownPreviewOutput {
  const html = markdown(input.gfm ?? true, input.breaks ?? false).parse(input.markdown, { async: false });
  return { html, result: html };
}
