/** A slow, salted password KDF (scrypt by default). `hash` output is self-describing (algorithm, params, salt). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}
