/**
 * Conversions between an instant (ISO-8601, what the API speaks) and the value of an `<input type="datetime-local">`
 * (`YYYY-MM-DDTHH:mm:ss` in the browser's time zone, what a person types).
 */
const pad = (value: number) => String(value).padStart(2, '0');

export function toLocalInputValue(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The instant a local date-time stands for, or null while the input holds no complete value. */
export function fromLocalInputValue(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
