import { Edit, type Identifier, SaveButton, Toolbar } from 'react-admin';
import { PackageDeleteButton } from './package-actions';
import { PackageForm } from './package-form';

function PackageEditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton data-testid="package-save" />
      <PackageDeleteButton redirectTo="list" />
    </Toolbar>
  );
}

/**
 * Edits a package (admins only: the route exists only for them). The save waits for the server: a new price or
 * duration of a package in use is refused there (`error.payment.plan.cannot.be.modified`), and the form stays open
 * with the toast saying why. The id comes from the route (`/packages/:id`) unless given.
 */
export function PackageEdit({ id }: { id?: Identifier }) {
  return (
    <Edit id={id} mutationMode="pessimistic" redirect="list">
      <PackageForm toolbar={<PackageEditToolbar />} />
    </Edit>
  );
}
