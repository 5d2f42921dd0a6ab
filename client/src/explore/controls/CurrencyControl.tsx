import { Group, Select, Text, type OptionsFilter } from '@mantine/core';
import { currencyOf, getCurrencySymbol, type Currency } from '../../viz/shared/format';

/** Superset's CURRENCY_SYMBOL_POSITION_OPTIONS. */
const POSITIONS = [
  { value: 'prefix', label: 'Prefix' },
  { value: 'suffix', label: 'Suffix' },
];

let choices: Array<{ value: string; label: string }> | undefined;
const names = new Map<string, string>();

/** Every ISO 4217 code Intl knows, labelled as Superset's ('$ (USD)'); each code's English name is kept for the list and the search. */
export function currencyChoices(): Array<{ value: string; label: string }> {
  if (!choices) {
    const display = new Intl.DisplayNames(['en'], { type: 'currency' });
    choices = Intl.supportedValuesOf('currency').map((code) => {
      names.set(code, display.of(code) ?? '');
      return { value: code, label: `${getCurrencySymbol(code)} (${code})` };
    });
  }
  return choices;
}

/** A currency is found by its symbol, its code or its name ('euro', 'eur', '€'). */
const bySymbolCodeOrName: OptionsFilter = ({ options, search }) => {
  const text = search.trim().toLowerCase();
  return options.filter((o) => 'value' in o && `${o.label} ${names.get(o.value) ?? ''}`.toLowerCase().includes(text));
};

/**
 * Superset's CurrencyControl: where the symbol goes and which currency, stored as `{ symbol: 'USD', symbolPosition:
 * 'prefix' }` (a cleared side is left out). Used for the charts' `currency_format` and a table column's `currencyFormat`.
 */
export function CurrencyControl({ label, value, onChange, withinPortal = true }: { label: string; value: unknown; onChange: (value: Currency) => void; withinPortal?: boolean }) {
  const currency = currencyOf(value) ?? {};
  const set = (key: keyof Currency, v: string | null) => {
    const next: Currency = { ...currency };
    if (v) next[key] = v;
    else delete next[key];
    onChange(next);
  };
  const known = currencyChoices();
  // A code typed elsewhere (Superset lets one be typed) stays shown.
  const data = currency.symbol && !known.some((c) => c.value === currency.symbol) ? [{ value: currency.symbol, label: currency.symbol }, ...known] : known;
  return (
    <Group grow gap="xs" wrap="nowrap" className="currency-control-container" role="group" aria-label={label}>
      <Select size="xs" aria-label="Currency prefix or suffix" placeholder="Prefix or suffix" data={POSITIONS} value={currency.symbolPosition ?? null} onChange={(v) => set('symbolPosition', v)} clearable comboboxProps={{ withinPortal }} />
      <Select
        size="xs"
        aria-label="Currency symbol"
        placeholder="Currency"
        data={data}
        value={currency.symbol ?? null}
        onChange={(v) => set('symbol', v)}
        searchable
        filter={bySymbolCodeOrName}
        renderOption={({ option }) => (
          <Group gap={6} wrap="nowrap">
            <Text size="xs">{option.label}</Text>
            <Text size="xs" c="dimmed">
              {names.get(option.value)}
            </Text>
          </Group>
        )}
        clearable
        nothingFoundMessage="No currency found"
        // Wider than the half-width input, so a name such as 'Canadian Dollar' reads on one line.
        comboboxProps={{ withinPortal, width: 260, position: 'bottom-end' }}
      />
    </Group>
  );
}
