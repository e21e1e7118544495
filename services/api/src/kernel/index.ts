/**
 * The pure kernel every `domain/` folder may import beside `@kupa/proto`: deciders and their folding, and the two
 * ways domain code says no (a `DomainError` with a catalogue code for a rule, `assert` for a bug). No framework, no
 * database, no clock.
 */
export { type Decider, type Evolution, fold } from './decider';
export { assert, DomainError } from './domain-error';
