import { describe, expect, it } from 'vitest';
import { fileName, shareByEmailHref } from './chart-export';

describe('chart downloads and sharing', () => {
  it('names a download after the chart, without the characters file systems refuse', () => {
    expect(fileName('Births by gender', 'csv')).toBe('Births by gender.csv');
    expect(fileName('Sales: 2024/25 "final"?', 'png')).toBe('Sales_ 2024_25 _final_.png');
    expect(fileName('  ', 'pdf')).toBe('chart.pdf');
  });

  it('shares by email as a mailto link with the subject and the link in the body, encoded', () => {
    expect(shareByEmailHref('Meridian chart: A & B', 'Check out this chart: ', 'http://h/superset/explore/p/k1/')).toBe(
      'mailto:?Subject=Meridian%20chart%3A%20A%20%26%20B&Body=Check%20out%20this%20chart%3A%20http%3A%2F%2Fh%2Fsuperset%2Fexplore%2Fp%2Fk1%2F',
    );
  });
});
