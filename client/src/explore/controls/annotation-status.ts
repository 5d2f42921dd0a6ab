import { createContext } from 'react';

/** Each layer's state from the chart (spec 01 §4): running, or its error; Explore provides it. */
export interface AnnotationLayerStatus {
  loading: Record<string, true>;
  errors: Record<string, string>;
}
export const AnnotationStatusContext = createContext<AnnotationLayerStatus | null>(null);
