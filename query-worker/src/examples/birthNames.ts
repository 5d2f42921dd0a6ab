// birth_names: US baby names per year, state and gender (Superset's classic example dataset).
// Fully synthetic and deterministic: each name has a popularity curve over time (peak year,
// peak weight, spread); each state has a share of national births; a fixed per-(name, state)
// affinity plus small yearly noise gives realistic-looking variation. As in the SSA data,
// name/state/year combinations with fewer than 5 births are not listed.

import { type GeneratedTable, gaussian, mulberry32, yearStartMs } from './model';

export const BIRTH_NAMES_FIRST_YEAR = 1965;
export const BIRTH_NAMES_LAST_YEAR = 2008;

/** [name, peak year, relative weight at peak (100 ≈ the most popular name of its era), spread in years] */
type NameCurve = readonly [string, number, number, number];

const BOY_NAMES: readonly NameCurve[] = [
  ['Michael', 1970, 100, 22], ['David', 1960, 70, 24], ['James', 1960, 75, 28], ['John', 1960, 75, 24],
  ['Robert', 1960, 70, 20], ['William', 1965, 55, 35], ['Richard', 1958, 45, 16], ['Joseph', 1975, 45, 35],
  ['Thomas', 1965, 40, 24], ['Christopher', 1984, 80, 14], ['Matthew', 1985, 62, 14], ['Daniel', 1986, 50, 24],
  ['Joshua', 1990, 62, 12], ['Andrew', 1990, 45, 20], ['Jacob', 2002, 65, 10], ['Nicholas', 1993, 40, 12],
  ['Tyler', 1994, 38, 8], ['Brandon', 1992, 38, 10], ['Justin', 1988, 35, 10], ['Ryan', 1990, 35, 15],
  ['Jason', 1975, 60, 8], ['Kevin', 1975, 35, 12], ['Brian', 1972, 38, 10], ['Eric', 1976, 33, 10],
  ['Steven', 1965, 35, 12], ['Mark', 1960, 38, 12], ['Jeffrey', 1965, 33, 10], ['Scott', 1970, 30, 10],
  ['Timothy', 1968, 30, 12], ['Anthony', 1990, 33, 25], ['Jonathan', 1988, 30, 15], ['Adam', 1983, 25, 10],
  ['Aaron', 1988, 22, 15], ['Benjamin', 1992, 22, 20], ['Zachary', 1994, 28, 8], ['Austin', 1996, 28, 7],
  ['Kyle', 1990, 25, 10], ['Jordan', 1995, 20, 8], ['Cody', 1993, 20, 7], ['Ethan', 2004, 40, 10],
  ['Noah', 2010, 35, 8], ['Alexander', 2005, 30, 15], ['Logan', 2005, 20, 8], ['Dylan', 1998, 22, 8],
  ['Nathan', 2000, 22, 12], ['Christian', 2000, 22, 12], ['Jose', 1995, 18, 15], ['Samuel', 2000, 15, 20],
  ['Gabriel', 2005, 15, 10], ['Jayden', 2010, 25, 5], ['Aiden', 2010, 25, 6], ['Caleb', 2005, 18, 8],
  ['Luke', 2006, 15, 10], ['Angel', 2005, 14, 10], ['Hunter', 2000, 15, 7], ['Isaiah', 2006, 15, 8],
  ['Elijah', 2010, 15, 8], ['Jack', 2008, 14, 12], ['Evan', 2005, 12, 10], ['Connor', 1998, 15, 8],
  ['Cameron', 1998, 14, 8], ['Sean', 1986, 18, 10], ['Travis', 1982, 18, 7], ['Jeremy', 1978, 22, 8],
  ['Chad', 1974, 18, 5], ['Shawn', 1975, 15, 7], ['Todd', 1967, 15, 6], ['Gregory', 1962, 20, 10],
  ['Kenneth', 1960, 25, 12], ['Paul', 1960, 25, 12], ['Dennis', 1955, 20, 10], ['Gary', 1955, 20, 8],
  ['Donald', 1955, 22, 10], ['Charles', 1960, 35, 18], ['Patrick', 1970, 15, 15], ['Edward', 1955, 20, 15],
  ['Larry', 1955, 18, 8], ['Keith', 1963, 15, 8], ['Craig', 1966, 13, 7], ['Derek', 1985, 13, 8],
  ['Juan', 1990, 12, 15], ['Carlos', 1990, 12, 15], ['Luis', 1995, 12, 12], ['Antonio', 1980, 10, 20],
  ['Jesse', 1982, 13, 12], ['Dustin', 1982, 15, 6], ['Corey', 1982, 14, 6], ['Marcus', 1985, 10, 10],
  ['Bradley', 1983, 13, 8], ['Jared', 1990, 14, 8], ['Alex', 1995, 12, 10], ['Trevor', 1993, 11, 6],
  ['Devin', 1996, 12, 7], ['Mason', 2008, 20, 7], ['Owen', 2008, 12, 8], ['Ian', 1998, 10, 8],
];

const GIRL_NAMES: readonly NameCurve[] = [
  ['Jennifer', 1972, 100, 8], ['Lisa', 1964, 75, 6], ['Kimberly', 1967, 50, 8], ['Michelle', 1969, 55, 8],
  ['Amy', 1974, 50, 7], ['Angela', 1970, 45, 8], ['Melissa', 1978, 50, 8], ['Mary', 1955, 50, 20],
  ['Patricia', 1955, 25, 10], ['Linda', 1950, 30, 8], ['Susan', 1958, 35, 8], ['Karen', 1962, 35, 7],
  ['Elizabeth', 1990, 33, 30], ['Jessica', 1987, 65, 8], ['Ashley', 1988, 70, 7], ['Amanda', 1984, 55, 7],
  ['Sarah', 1985, 50, 12], ['Stephanie', 1985, 45, 9], ['Nicole', 1983, 40, 10], ['Heather', 1975, 40, 7],
  ['Rebecca', 1980, 28, 12], ['Laura', 1975, 28, 10], ['Christina', 1980, 30, 10], ['Emily', 1998, 45, 12],
  ['Samantha', 1992, 38, 8], ['Hannah', 1999, 38, 8], ['Madison', 2001, 40, 6], ['Emma', 2008, 38, 8],
  ['Olivia', 2008, 33, 8], ['Abigail', 2005, 30, 8], ['Isabella', 2009, 35, 5], ['Ava', 2008, 25, 5],
  ['Sophia', 2010, 25, 6], ['Taylor', 1995, 25, 6], ['Alexis', 1998, 28, 7], ['Brittany', 1989, 40, 5],
  ['Megan', 1987, 28, 7], ['Lauren', 1990, 28, 8], ['Rachel', 1983, 25, 10], ['Danielle', 1986, 22, 8],
  ['Tiffany', 1986, 22, 5], ['Crystal', 1982, 20, 6], ['Amber', 1985, 25, 6], ['Kelly', 1970, 25, 8],
  ['Julie', 1966, 28, 7], ['Tammy', 1966, 25, 5], ['Tracy', 1968, 20, 5], ['Dawn', 1968, 15, 5],
  ['Christine', 1965, 25, 10], ['Deborah', 1955, 25, 8], ['Donna', 1958, 18, 8], ['Cynthia', 1960, 22, 8],
  ['Pamela', 1958, 20, 8], ['Sandra', 1958, 20, 8], ['Brenda', 1958, 20, 8], ['Wendy', 1970, 15, 5],
  ['Stacy', 1970, 18, 5], ['Shannon', 1975, 18, 7], ['April', 1978, 15, 6], ['Erin', 1983, 18, 8],
  ['Andrea', 1982, 20, 10], ['Katherine', 1990, 18, 25], ['Jamie', 1978, 15, 7], ['Victoria', 1997, 15, 10],
  ['Anna', 2000, 15, 15], ['Natalie', 2002, 15, 8], ['Grace', 2003, 13, 7], ['Chloe', 2008, 18, 6],
  ['Kayla', 1994, 25, 6], ['Alyssa', 1996, 22, 7], ['Brianna', 1998, 20, 6], ['Courtney', 1990, 18, 6],
  ['Kaitlyn', 1996, 14, 5], ['Morgan', 1996, 18, 6], ['Haley', 1997, 16, 6], ['Jasmine', 1993, 16, 8],
  ['Destiny', 1999, 13, 5], ['Sydney', 1999, 13, 6], ['Ella', 2008, 15, 5], ['Addison', 2008, 18, 4],
  ['Lily', 2008, 12, 5], ['Brooke', 1995, 10, 8], ['Kristen', 1984, 14, 6], ['Lindsey', 1985, 14, 6],
  ['Erica', 1984, 15, 7], ['Monica', 1975, 12, 8], ['Veronica', 1982, 10, 10], ['Maria', 1975, 20, 15],
  ['Vanessa', 1990, 14, 8], ['Kristin', 1980, 12, 6], ['Jenna', 1990, 10, 8], ['Katie', 1985, 12, 8],
  ['Sara', 1985, 15, 10], ['Allison', 1993, 14, 10], ['Mia', 2008, 22, 6], ['Leah', 2004, 10, 10],
];

/** Names with a stronger presence in states with large Hispanic populations. */
const HISPANIC_NAMES = new Set(['Jose', 'Juan', 'Carlos', 'Luis', 'Antonio', 'Angel', 'Maria', 'Vanessa', 'Veronica', 'Jasmine', 'Destiny', 'Isabella', 'Gabriel']);
const HISPANIC_STATES = new Set(['CA', 'TX', 'FL', 'IL']);

/** [state code, share of US births]. 'other' groups every remaining state, as in Superset's data. */
const STATES: readonly (readonly [string, number])[] = [
  ['CA', 0.135], ['TX', 0.092], ['NY', 0.068], ['FL', 0.055], ['IL', 0.047], ['PA', 0.038],
  ['OH', 0.039], ['MI', 0.034], ['NJ', 0.029], ['MA', 0.02], ['other', 0.443],
];

/** Approximate US births per year (millions): baby bust of the 70s, echo boom around 1990. */
function usBirths(year: number): number {
  const anchors: [number, number][] = [
    [1965, 3.76], [1968, 3.5], [1970, 3.73], [1973, 3.14], [1976, 3.17], [1980, 3.61], [1985, 3.76],
    [1990, 4.16], [1995, 3.9], [1997, 3.88], [2000, 4.06], [2004, 4.11], [2007, 4.32], [2008, 4.25],
  ];
  for (let i = 1; i < anchors.length; i++) {
    const [y1, v1] = anchors[i];
    const [y0, v0] = anchors[i - 1];
    if (year <= y1) return (v0 + ((v1 - v0) * (year - y0)) / (y1 - y0)) * 1e6;
  }
  return anchors[anchors.length - 1][1] * 1e6;
}

/** Share of births of one gender that a name gets in a year (most popular ≈ 3.5–4 %). */
function nameShare(curve: NameCurve, year: number): number {
  const [, peak, weight, spread] = curve;
  const z = (year - peak) / spread;
  return (weight / 100) * 0.038 * (Math.exp(-0.5 * z * z) + 0.002);
}

export const BIRTH_NAMES_COLUMNS = [
  { name: 'ds', type: 'TIMESTAMP' },
  { name: 'gender', type: 'VARCHAR' },
  { name: 'name', type: 'VARCHAR' },
  { name: 'num', type: 'BIGINT' },
  { name: 'state', type: 'VARCHAR' },
  { name: 'num_boys', type: 'BIGINT' },
  { name: 'num_girls', type: 'BIGINT' },
] as const;

export function generateBirthNames(): GeneratedTable {
  const rand = mulberry32(0x5eed_b1e7);
  // Fixed affinity of each name to each state (regional taste), drawn once, in a fixed order.
  const affinity = new Map<string, number>();
  for (const [gender, names] of [['boy', BOY_NAMES], ['girl', GIRL_NAMES]] as const) {
    for (const curve of names) {
      for (const [state] of STATES) {
        let a = Math.exp(0.25 * gaussian(rand));
        if (HISPANIC_NAMES.has(curve[0])) a *= HISPANIC_STATES.has(state) ? 2.2 : 0.6;
        affinity.set(`${gender}|${curve[0]}|${state}`, a);
      }
    }
  }

  const rows: (string | number)[][] = [];
  for (let year = BIRTH_NAMES_FIRST_YEAR; year <= BIRTH_NAMES_LAST_YEAR; year++) {
    const ds = yearStartMs(year);
    const births = usBirths(year);
    for (const [state, stateShare] of STATES) {
      for (const [gender, names, genderShare] of [['boy', BOY_NAMES, 0.512], ['girl', GIRL_NAMES, 0.488]] as const) {
        const pool = births * stateShare * genderShare;
        for (const curve of names) {
          const noise = Math.exp(0.08 * gaussian(rand));
          const num = Math.round(pool * nameShare(curve, year) * affinity.get(`${gender}|${curve[0]}|${state}`)! * noise);
          if (num < 5) continue;
          rows.push([ds, gender, curve[0], num, state, gender === 'boy' ? num : 0, gender === 'girl' ? num : 0]);
        }
      }
    }
  }
  return { name: 'birth_names', columns: [...BIRTH_NAMES_COLUMNS], rows };
}
