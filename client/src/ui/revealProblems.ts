/**
 * After a refused submit, what to fix is brought into view. A person who submits from the bottom
 * of a long dialog (a report, a rule, a campaign on a laptop's screen) would otherwise see nothing
 * happen while the errors sit above, scrolled out of view.
 */
import { useCallback, useEffect, useRef, type FormEventHandler, type RefObject } from 'react';

/**
 * The first field marked invalid in `form` is scrolled to the middle of its dialog and focused,
 * or else the form-level error (FormError, `data-form-error`) is scrolled into view; other alerts
 * in the form (an information box) are not problems. Runs on the next frame,
 * once the errors are rendered; with nothing to fix it does nothing.
 */
export function revealFirstProblem(form: HTMLElement | null): void {
  requestAnimationFrame(() => {
    const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = field ?? form?.querySelector<HTMLElement>('[data-form-error]');
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  });
}

/**
 * Wires a form to revealFirstProblem: returns the ref for the form element and its submit
 * handler, `onSubmit` followed by the reveal (the client's own validation is rendered right after
 * the submit). `submitting` true then false reveals the server's refusal, rendered when the request
 * ends.
 */
export function useRevealProblems(onSubmit: FormEventHandler<HTMLFormElement>, submitting: boolean): [RefObject<HTMLFormElement | null>, FormEventHandler<HTMLFormElement>] {
  const formRef = useRef<HTMLFormElement>(null);
  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting) revealFirstProblem(formRef.current);
    wasSubmitting.current = submitting;
  }, [submitting]);
  const submitAndReveal = useCallback<FormEventHandler<HTMLFormElement>>((event) => {
    onSubmit(event);
    revealFirstProblem(formRef.current);
  }, [onSubmit]);
  return [formRef, submitAndReveal];
}
