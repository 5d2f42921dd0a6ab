import { Accordion, Group, ScrollArea, Stack, Tabs } from '@mantine/core';
import { memo, useState } from 'react';
import { resolveControl } from '../viz/shared/controls';
import type { ChartPlugin, ControlContext } from '../viz/types';
import { ControlRow } from './controls/ControlField';
import { isVisible } from './controls/panel';
import classes from './explore.module.css';

/** The labels of the sections a chart type opens at first (all but those it declares expanded: false). */
const expanded = (plugin: ChartPlugin) => plugin.controlPanel.sections.filter((s) => s.expanded !== false).map((s) => s.label);

/** The chart type's sections (Data and Customize tabs), each row of controls laid side by side. */
export const ControlPanel = memo(function ControlPanel({ plugin, ctx, errors, onChange, datasourceKey, header }: { plugin: ChartPlugin; ctx: ControlContext; errors: Record<string, string[]>; onChange: (name: string, value: unknown) => void; datasourceKey: string; header: React.ReactNode }) {
  const sections = (tab: 'data' | 'customize') => plugin.controlPanel.sections.filter((s) => (s.tab ?? 'data') === tab);
  // The sections open, and those ever opened: a closed section's controls are drawn (and their code loaded) only
  // once it is first opened, or when one of them has an error to show. Kept afterwards, so closing is animated.
  const [open, setOpen] = useState(() => expanded(plugin));
  const [opened, setOpened] = useState(() => new Set(open));
  // Another chart type opens its own sections as it declares them.
  const [sectionsOf, setSectionsOf] = useState(plugin);
  if (sectionsOf !== plugin) {
    setSectionsOf(plugin);
    setOpen(expanded(plugin));
    setOpened(new Set(expanded(plugin)));
  }
  const onOpen = (labels: string[]) => {
    setOpen(labels);
    setOpened((was) => (labels.every((l) => was.has(l)) ? was : new Set([...was, ...labels])));
  };
  const render = (tab: 'data' | 'customize') => {
    const list = sections(tab);
    return (
      <Accordion multiple value={open} onChange={onOpen} variant="default" chevronPosition="right" classNames={{ label: classes.sectionLabel, content: classes.sectionContent }}>
        {list.map((section) => (
          <Accordion.Item key={section.label} value={section.label}>
            <Accordion.Control>{section.label}</Accordion.Control>
            <Accordion.Panel>
              {(opened.has(section.label) || section.controlSetRows.some((row) => row.some((entry) => errors[resolveControl(entry).name]?.length))) && (
                <Stack gap="sm">
                  {section.controlSetRows.map((row, i) => {
                    const controls = row.map(resolveControl).filter((c) => isVisible(c, ctx));
                    if (!controls.length) return null;
                    return (
                      <Group key={i} grow align="flex-start" gap="xs" wrap="nowrap">
                        {controls.map((control) => (
                          <ControlRow key={control.name} control={control} value={ctx.formData[control.name]} onChange={(v) => onChange(control.name, v)} errors={errors[control.name] ?? []} ctx={ctx} datasourceKey={datasourceKey} />
                        ))}
                      </Group>
                    );
                  })}
                </Stack>
              )}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    );
  };
  const hasCustomize = sections('customize').length > 0;
  return (
    <div className={classes.controlPanel} aria-label="Chart controls" role="region">
      <Tabs defaultValue="data" keepMounted={false} className={classes.controlTabs}>
        <Tabs.List grow>
          <Tabs.Tab value="data">Data</Tabs.Tab>
          {hasCustomize && <Tabs.Tab value="customize">Customize</Tabs.Tab>}
        </Tabs.List>
        <ScrollArea className={classes.controlScroll} type="auto" offsetScrollbars>
          {header}
          <Tabs.Panel value="data">{render('data')}</Tabs.Panel>
          {hasCustomize && <Tabs.Panel value="customize">{render('customize')}</Tabs.Panel>}
        </ScrollArea>
      </Tabs>
    </div>
  );
});
