// Meridian takes only the GeoJSON files of Superset's Country Map package (its shapes, keyed by ISO 3166-2 codes,
// read at build time by client/src/viz/country_map/country-shapes.build.ts). Its code's dependencies (d3 3, @superset-ui/core and React 16
// as peers, which pnpm would install) are never run here, so they are not installed.
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === '@superset-ui/legacy-plugin-chart-country-map') {
        pkg.dependencies = {};
        pkg.peerDependencies = {};
        pkg.peerDependenciesMeta = {};
      }
      return pkg;
    },
  },
};
