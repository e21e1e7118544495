import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { useState } from 'react';
import { useText } from '../i18n/text';

/**
 * A password input with a show/hide button, as in the client app. The value is a left-to-right token, so the input
 * stays LTR even on a Hebrew page.
 */
export function PasswordField(props: TextFieldProps) {
  const [visible, setVisible] = useState(false);
  const translate = useText();
  const label = translate(visible ? 'kupa.password.hide' : 'kupa.password.show');
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        ...props.slotProps,
        htmlInput: { dir: 'ltr', ...(props.slotProps?.htmlInput as object | undefined) },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={label}
                aria-pressed={visible}
                onClick={() => setVisible((value) => !value)}
                edge="end"
                size="small"
                data-testid="password-visibility"
              >
                {visible ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
