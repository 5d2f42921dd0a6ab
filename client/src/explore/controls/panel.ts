/**
 * The control panel as data, for one chart type: which controls show, their values after the shared
 * rules of spec 01 §5 (select cleaning, colour scheme reset, include_time), and their validation errors.
 */
import { cleanSelectControlValue, resolveColorScheme, validateInteger, validateRowLimit } from '@meridian/contracts/rules/validators';
import { CATEGORICAL_SCHEMES, DEFAULT_CATEGORICAL_SCHEME, DEFAULT_SEQUENTIAL_SCHEME, SEQUENTIAL_SCHEMES } from '../../viz/shared/colors';
import { resolveControl } from '../../viz/shared/controls';
import type { ChartPlugin, ControlConfig, ControlContext, FormData } from '../../viz/types';

/** Every control the chart type declares, resolved (shared names expanded), in panel order. */
export function controlsOf(plugin: ChartPlugin): ControlConfig[] {
  return plugin.controlPanel.sections.flatMap((s) => s.controlSetRows.flat().map(resolveControl));
}

export function isVisible(control: ControlConfig, ctx: ControlContext): boolean {
  return control.type !== 'HiddenControl' && (control.visibility ? control.visibility(ctx) : true);
}

/** The names of the controls shown for this form data (hidden ones are stashed on a type change). */
export function visibleControlNames(plugin: ChartPlugin, ctx: ControlContext): Set<string> {
  return new Set(controlsOf(plugin).filter((c) => isVisible(c, ctx)).map((c) => c.name));
}

/** Validation errors of the visible controls, by name; a run is blocked while any control has errors. */
export function validateFormData(plugin: ChartPlugin, ctx: ControlContext, sqlMaxRow?: number | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const control of controlsOf(plugin)) {
    if (!isVisible(control, ctx)) continue;
    const value = ctx.formData[control.name] ?? control.default;
    const found: string[] = [];
    for (const validate of control.validators ?? []) {
      const error = validate(value, ctx);
      if (error) found.push(error);
    }
    if (control.isInt) {
      const error = validateInteger(value);
      if (error) found.push(error);
    }
    if (control.name === 'row_limit' || control.name === 'row_limit_b') found.push(...validateRowLimit(value, sqlMaxRow));
    if (found.length) errors[control.name] = [...new Set(found)];
  }
  return errors;
}

/**
 * Form data as the chart type's controls accept it: defaults and dataset-given initial values filled, non-free-form selects cleaned,
 * unknown colour schemes reset (spec 01 §5).
 */
export function normaliseFormData(plugin: ChartPlugin, formData: FormData, ctx: Omit<ControlContext, 'formData'>): FormData {
  const next: FormData = { ...plugin.defaultFormData, ...formData } as FormData;
  const full = { ...ctx, formData: next };
  for (const control of controlsOf(plugin)) {
    if (next[control.name] === undefined && control.default !== undefined) next[control.name] = control.default;
    if (next[control.name] === undefined && control.initialValue) {
      const initial = control.initialValue(full);
      if (initial !== undefined && initial !== null) next[control.name] = initial;
    }
    if (control.fromStored && next[control.name] !== undefined) next[control.name] = control.fromStored(next[control.name]);
    if (control.type === 'SelectControl' && !control.freeForm && next[control.name] !== undefined) {
      const choices = typeof control.choices === 'function' ? control.choices(full) : control.choices;
      // Column choices are only known once the dataset is: do not clean against an empty list.
      if (choices && choices.length) next[control.name] = cleanSelectControlValue({ multi: control.multi, freeForm: control.freeForm, choices }, next[control.name]);
    }
    if (control.type === 'ColorSchemeControl') {
      const sequential = control.schemeType === 'sequential';
      next[control.name] = resolveColorScheme(next[control.name], (sequential ? SEQUENTIAL_SCHEMES : CATEGORICAL_SCHEMES).map((s) => s.id), sequential ? DEFAULT_SEQUENTIAL_SCHEME : DEFAULT_CATEGORICAL_SCHEME);
    }
  }
  return next;
}
