import { theme } from '../../client-ui/src/theme';
import { kernelName } from '../../services/api/src/kernel';

export const adminApp = `${theme} ${kernelName}`;
