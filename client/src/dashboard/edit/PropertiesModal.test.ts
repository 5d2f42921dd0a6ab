import { describe, expect, it } from 'vitest';
import { propertyErrorsOf } from './PropertiesModal';

describe('a save refused for a field of the properties', () => {
  it("reads Superset's 422 field map for the fields the properties modal has", () => {
    expect(propertyErrorsOf({ slug: ['Must be unique'] })).toEqual({ slug: ['Must be unique'] });
    expect(propertyErrorsOf({ dashboard_title: 'Required', owners: ['Owners are invalid'], css: ['Not a string'] })).toEqual({ dashboard_title: ['Required'], owners: ['Owners are invalid'] });
  });

  it('is null for a refusal of another field, or one without a field map', () => {
    expect(propertyErrorsOf({ position_json: ['Not valid JSON'] })).toBeNull();
    expect(propertyErrorsOf('Forbidden')).toBeNull();
    expect(propertyErrorsOf(undefined)).toBeNull();
  });
});
