/**
 * A modal the app answered with (callback type 9), as a dialog: its text inputs (in action rows,
 * or in labels), and a submit that sends v10's MODAL_SUBMIT (type 5) with what was typed.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Json } from '../types';

export interface ModalInput {
  custom_id: string;
  label: string;
  description?: string;
  style: number;
  required: boolean;
  min_length?: number;
  max_length?: number;
  placeholder?: string;
  value?: string;
}

/** The text inputs of a modal's components, in order, whichever layout the app used. */
export function modalInputs(components: Json[]): ModalInput[] {
  const inputs: ModalInput[] = [];
  const add = (input: Json, label?: string, description?: string) => {
    if (input?.type !== 4) return;
    inputs.push({
      custom_id: input.custom_id,
      label: label ?? input.label ?? input.custom_id,
      description,
      style: input.style ?? 1,
      required: input.required !== false,
      min_length: input.min_length,
      max_length: input.max_length,
      placeholder: input.placeholder,
      value: input.value,
    });
  };
  for (const top of components ?? []) {
    if (top?.type === 18) add(top.component, top.label, top.description);
    else if (top?.type === 1) for (const child of top.components ?? []) add(child);
    else add(top);
  }
  return inputs;
}

export function ModalDialog({
  modal,
  appName,
  submit,
  close,
}: {
  modal: Json;
  appName: string;
  submit: (values: Record<string, string>) => Promise<string | null>;
  close: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const inputs = modalInputs(modal.components);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(inputs.map((i) => [i.custom_id, i.value ?? ''])),
  );
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const send = async (event: Event) => {
    event.preventDefault();
    const missing = inputs.find((i) => i.required && (values[i.custom_id] ?? '').trim() === '');
    if (missing) {
      setError(`${missing.label} is required.`);
      return;
    }
    const refused = await submit(values);
    if (refused) setError(refused);
    else close();
  };
  return (
    <dialog ref={dialog} class="modal" aria-labelledby="modal-title" onCancel={close}>
      <form method="dialog" onSubmit={(e) => void send(e)}>
        <p class="muted">{appName}</p>
        <h2 id="modal-title">{modal.title}</h2>
        {inputs.map((input) => {
          const id = `modal-${input.custom_id}`;
          const props = {
            id,
            required: input.required,
            minLength: input.min_length,
            maxLength: input.max_length,
            placeholder: input.placeholder,
            value: values[input.custom_id] ?? '',
            onInput: (e: Event) =>
              setValues((v) => ({ ...v, [input.custom_id]: (e.currentTarget as HTMLInputElement).value })),
          };
          return (
            <div class="field" key={input.custom_id}>
              <label for={id}>
                {input.label}
                {input.required && <span class="required"> (required)</span>}
              </label>
              {input.description && <p class="field-description">{input.description}</p>}
              {input.style === 2 ? <textarea {...props} rows={4} /> : <input {...props} type="text" />}
            </div>
          );
        })}
        {error && (
          <p class="form-refusal" role="alert">
            {error}
          </p>
        )}
        <div class="form-actions">
          <button type="submit" class="button primary">
            Submit
          </button>
          <button type="button" class="button secondary" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
