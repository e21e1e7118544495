export { SecretBox } from './secret-box';
export { derivedSecret, linkSignature } from './derived-secret';
