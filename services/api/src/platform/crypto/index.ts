export { SecretBox } from './secret-box';
export { derivedSecret, linkSignature, sameText } from './derived-secret';
export { hashSecretToken, newSecretToken } from './secret-token';
