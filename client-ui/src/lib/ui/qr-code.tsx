import { useMemo } from 'react';
import { create } from 'qrcode';

/** The quiet zone the QR specification asks for around the code, in modules. */
const QUIET_ZONE_MODULES = 4;

/**
 * A QR code of `value` drawn as one SVG path, dark on white whatever the theme (phone cameras read dark modules on a
 * light ground). The `qrcode` package only computes the modules here, in the browser, with no network and no canvas
 * (docs/adr/0077-details-people-can-read.md).
 */
export function QrCode({
  value,
  label,
  sizePx,
  testId,
}: {
  value: string;
  label: string;
  sizePx: number;
  testId?: string;
}) {
  const { path, extent } = useMemo(() => {
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    const commands: string[] = [];
    for (let row = 0; row < modules.size; row += 1) {
      for (let column = 0; column < modules.size; column += 1) {
        if (modules.get(row, column)) {
          commands.push(`M${column + QUIET_ZONE_MODULES} ${row + QUIET_ZONE_MODULES}h1v1h-1z`);
        }
      }
    }
    return { path: commands.join(''), extent: modules.size + QUIET_ZONE_MODULES * 2 };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={sizePx}
      height={sizePx}
      viewBox={`0 0 ${extent} ${extent}`}
      shapeRendering="crispEdges"
      data-testid={testId}
      data-value={value}
    >
      <rect width={extent} height={extent} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
