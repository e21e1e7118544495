import { Create } from 'react-admin';
import { PackageForm } from './package-form';

/** A new package (admins only: the route exists only for them). */
export function PackageCreate() {
  return (
    <Create redirect="list">
      <PackageForm />
    </Create>
  );
}
