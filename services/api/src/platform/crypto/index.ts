export { SecretBox } from './secret-box';
export { derivedSecret, linkSignature, sameText } from './derived-secret';
