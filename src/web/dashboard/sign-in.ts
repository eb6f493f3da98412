/** Sign-in by e-mail one-time code: address → code → session. */
import { api, isDevMode, state } from './api.js';
import { busy, errorText, field, fill, h, notice } from './dom.js';

export async function signInPage(view: HTMLElement, done: () => void): Promise<void> {
  document.title = 'Sign in · Groundwork';
  const wrap = h('div', { class: 'narrow card' });
  view.append(wrap);
  const dev = await isDevMode();

  const showEmailStep = (email = '') => {
    const input = h('input', { type: 'email', name: 'email', autocomplete: 'email', required: true, maxlength: 254, value: email });
    const submit = h('button', { type: 'submit' }, 'E-mail me a code');
    const error = h('div', { 'aria-live': 'assertive' });
    const form = h('form', { novalidate: false }, field('E-mail address', input, 'We send a one-time code. No password needed.'), submit, error);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void busy(submit, async () => {
        error.replaceChildren();
        try {
          const started = await api.startSignIn(input.value.trim());
          showCodeStep(input.value.trim(), started.expiresInSeconds);
        } catch (e) {
          error.replaceChildren(notice('error', errorText(e)));
        }
      });
    });
    wrap.replaceChildren(h('h1', {}, 'Sign in to Groundwork'), h('p', { class: 'muted' }, 'Manage your knowledge bases, keys and widget.'), form);
    input.focus();
  };

  const showCodeStep = (email: string, expiresInSeconds: number) => {
    const input = h('input', {
      type: 'text',
      name: 'code',
      autocomplete: 'one-time-code',
      inputmode: 'text',
      autocapitalize: 'characters',
      spellcheck: 'false',
      required: true,
      maxlength: 20,
      placeholder: 'ABC-DEF',
    });
    const submit = h('button', { type: 'submit' }, 'Sign in');
    const back = h('button', { type: 'button', class: 'link' }, 'Use another address');
    back.addEventListener('click', () => showEmailStep(email));
    const error = h('div', { 'aria-live': 'assertive' });
    const form = h(
      'form',
      {},
      field('Code', input, `The code is valid for ${Math.round(expiresInSeconds / 60)} minutes, and only once.`),
      h('div', { class: 'row' }, submit, back),
      error,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void busy(submit, async () => {
        error.replaceChildren();
        try {
          state.session = await api.verifySignIn(email, input.value.trim());
          done();
        } catch (e) {
          input.setAttribute('aria-invalid', 'true');
          error.replaceChildren(notice('error', errorText(e)));
        }
      });
    });
    fill(
      wrap,
      h('h1', {}, 'Check your e-mail'),
      h('p', {}, 'We sent a sign-in code to ', h('strong', {}, email), '.'),
      dev
        ? notice(
            'info',
            'Development mode: mail is not sent. Read the code in the ',
            h('a', { href: '/dev/outbox', target: '_blank', rel: 'noopener' }, 'development outbox (opens in a new tab)'),
            '.',
          )
        : null,
      form,
    );
    input.focus();
  };

  showEmailStep();
}
