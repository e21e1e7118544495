import { testing } from '../../services/api/src/testing';
import { kernelName } from '../../services/api/src/kernel';

export const seed = (): string => testing() + kernelName;
