import { GeoChart } from '../shared/GeoChart';

export default GeoChart;
