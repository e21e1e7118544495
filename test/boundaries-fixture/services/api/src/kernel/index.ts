import { now } from '../platform/clock';

export const kernelName = `kernel ${now()}`;
