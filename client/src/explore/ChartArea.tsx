import { Alert, Button, Center, Loader, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { ChartState } from '@meridian/contracts/explore/chart-state';
import { ADD_REQUIRED_CONTROL_VALUES } from '@meridian/contracts/messages';
import { IconPlayerStop } from '@tabler/icons-react';
import { useMemo } from 'react';
import { ErrorMessage, linkOf } from '../components/ErrorMessage';
import { SuperChart } from '../viz/shared/SuperChart';
import type { DataPointClick, DatasourceMeta, FormData, OwnState } from '../viz/types';
import classes from './explore.module.css';

/** The chart with its state of spec 01 §4: loading (with a stop button), failed, stopped, or drawn. */
export function ChartArea({ state, formData, datasource, ownState, onOwnStateChange, onStop, onRendered, onRenderError, onDataPointClick, needsQuery, controlsMissing = false }: { state: ChartState; formData: FormData; datasource: DatasourceMeta | null; ownState?: OwnState; onOwnStateChange?: (ownState: OwnState) => void; onStop: () => void; onRendered: () => void; onRenderError: (e: Error) => void; onDataPointClick?: (click: DataPointClick) => void; needsQuery: boolean; controlsMissing?: boolean }) {
  const { ref, width, height } = useElementSize();
  const theme = useComputedColorScheme('light');
  // Until the form is valid the chart area asks for the missing controls (issue 11), whatever was drawn before.
  const status = controlsMissing ? 'idle' : state.chartStatus;
  const showChart = !controlsMissing && (!needsQuery || ((status === 'success' || status === 'rendered' || status === 'loading') && state.queriesResponse));
  // Layers queried on their own join the chart's answer, as if the server had answered them with it.
  const queriesData = useMemo(() => {
    const [first, ...rest] = (state.queriesResponse as any[]) ?? [];
    if (!first || !Object.keys(state.annotationData).length) return (state.queriesResponse as any[]) ?? [];
    return [{ ...first, annotation_data: { ...(first.annotation_data ?? {}), ...state.annotationData } }, ...rest];
  }, [state.queriesResponse, state.annotationData]);
  const layerErrors = Object.entries(state.annotationError);
  return (
    <div className={classes.chartBox} ref={ref} data-testid="explore-chart" data-chart-state={status}>
      {showChart && width > 0 && height > 0 && (
        <SuperChart formData={formData} queriesData={queriesData} datasource={datasource} width={width} height={height} theme={theme} ownState={ownState} onOwnStateChange={onOwnStateChange} onRendered={onRendered} onRenderError={onRenderError} onDataPointClick={onDataPointClick} inExplore />
      )}
      {layerErrors.length > 0 && showChart && (
        <div className={classes.layerErrors} role="status">
          {layerErrors.map(([name, error]) => (
            <Text key={name} size="xs" c="red" data-testid="annotation-error">
              Annotation layer "{name}": {error}
            </Text>
          ))}
        </div>
      )}
      {status === 'loading' && (
        <div className={classes.chartOverlay}>
          <Stack align="center" gap="sm">
            <Loader />
            <Button size="xs" variant="default" leftSection={<IconPlayerStop size={14} />} onClick={onStop}>
              Stop
            </Button>
          </Stack>
        </div>
      )}
      {status === 'stopped' && (
        <Center h="100%" p="md">
          <Alert color="yellow" variant="light" maw={640} role="alert">
            <Text size="sm">{state.chartAlert}</Text>
          </Alert>
        </Center>
      )}
      {status === 'failed' && (
        <Center h="100%" p="md">
          <ErrorMessage error={state.chartError} message={state.chartAlert ?? ''} stackTrace={state.chartStackTrace} link={linkOf(state.chartError)} />
        </Center>
      )}
      {status === 'idle' && controlsMissing && (
        <Center h="100%" p="md">
          <Alert color="yellow" variant="light" title={ADD_REQUIRED_CONTROL_VALUES} maw={520} data-testid="controls-missing">
            <Text size="sm">Select values in highlighted field(s) in the control panel. Then run the query by clicking on the "Create chart" button.</Text>
          </Alert>
        </Center>
      )}
      {status === 'idle' && needsQuery && !controlsMissing && (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            Choose the chart's controls, then Create chart.
          </Text>
        </Center>
      )}
    </div>
  );
}
