import { useT } from '../i18n/i18n-context';
import { TextField } from './text-field';

export type AddressKey = 'street' | 'careOf' | 'zipCode' | 'city';

/** A field as TextField takes it: value, change and blur handlers, the translated error (`bindField`). */
export interface AddressFieldBinding {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  errorMessage?: string;
}

/**
 * The contract's postcode: digits only, at most 10 (`operatorZipCodeSchema`, `contractZipCodeSchema`,
 * the location's zip code). A hint to the browser only: the messages are the form's rules.
 */
export const POSTCODE_PATTERN = '[0-9]{1,10}';

export interface AddressFieldsProps {
  /** The form's binding of each of the four fields. */
  field: (key: AddressKey) => AddressFieldBinding;
  /**
   * Where the area keeps its four labels (`<labels>.street`, `.careOf`, `.zipCode`, `.city`): the
   * areas word the postcode differently ('PLZ', 'Postleitzahl').
   */
  labels: string;
  /** Focus the street when the fields show (a step that starts with them). */
  autoFocus?: boolean;
}

/**
 * Street, c/o, postcode and city, in this order, for every address form. Rendered without a wrapper,
 * so the form's own grid places them beside its other fields. The postcode is text with a numeric
 * keyboard: a number input's spinner or a scroll wheel would turn 01067 into 1068.
 */
export function AddressFields({ field, labels, autoFocus }: AddressFieldsProps) {
  const t = useT();
  return (
    <>
      <TextField
        label={t(`${labels}.street`)}
        isRequired
        fullWidth
        autoFocus={autoFocus}
        autoComplete="address-line1"
        {...field('street')}
      />
      <TextField label={t(`${labels}.careOf`)} fullWidth autoComplete="off" {...field('careOf')} />
      <TextField
        label={t(`${labels}.zipCode`)}
        type="text"
        inputMode="numeric"
        pattern={POSTCODE_PATTERN}
        isRequired
        fullWidth
        autoComplete="postal-code"
        {...field('zipCode')}
      />
      <TextField label={t(`${labels}.city`)} isRequired fullWidth autoComplete="address-level2" {...field('city')} />
    </>
  );
}
