import { ActionIcon, Avatar, Menu, Text, Tooltip, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { menuFor, type MenuItem } from '@meridian/contracts/rules/menu';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import {
  IconChevronDown,
  IconDatabase,
  IconDeviceFloppy,
  IconHistory,
  IconInfoCircle,
  IconListDetails,
  IconLogout,
  IconMoon,
  IconShieldLock,
  IconSun,
  IconTerminal2,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { logout, useBootstrap, useSessionUser } from '../auth/session';
import { toastError } from '../notify';
import { BrandMark } from './Brand';
import classes from './NavBar.module.css';
import { UserInfoModal } from './UserInfoModal';

const startsWithAny = (path: string, prefixes: string[]) => prefixes.some((p) => path.startsWith(p));

/** The icon of a submenu item, by its menu name. */
const ICONS: Record<string, ReactNode> = {
  'SQL Lab': <IconTerminal2 size={16} />,
  'Saved Queries': <IconDeviceFloppy size={16} />,
  'Query Search': <IconHistory size={16} />,
  Databases: <IconDatabase size={16} />,
  'List Users': <IconUsers size={16} />,
  'List Roles': <IconShieldLock size={16} />,
  'Action Log': <IconListDetails size={16} />,
};

/** The address prefixes under which a top-level item shows as the current one. */
const ACTIVE_UNDER: Record<string, string[]> = {
  SQL: ['/sqllab', '/savedqueryview'],
  Charts: ['/chart', '/explore'],
  Dashboards: ['/dashboard', '/superset/dashboard'],
  Datasets: ['/tablemodelview'],
  Settings: ['/databaseview', '/users', '/roles', '/actionlog'],
};

/** A top-level item of the menu: a link, or a submenu of links. */
function NavItem({ item, path }: { item: MenuItem; path: string }) {
  const active = startsWithAny(path, ACTIVE_UNDER[item.name] ?? []);
  return item.childs ? (
    <NavMenu label={item.label} active={active} links={item.childs.map((c) => ({ label: c.label, to: c.url ?? '/', icon: ICONS[c.name] }))} />
  ) : (
    <NavLink label={item.label} to={item.url ?? '/'} active={active} />
  );
}

function NavMenu({ label, links, active }: { label: string; links: Array<{ label: string; to: string; icon: ReactNode }>; active: boolean }) {
  return (
    <Menu position="bottom-start" offset={0} shadow="md" width={220}>
      <Menu.Target>
        <UnstyledButton className={classes.item} data-active={active || undefined}>
          {label}
          <IconChevronDown size={14} className={classes.chevron} aria-hidden />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {links.map((link) => (
          <Menu.Item key={link.to} component={Link} to={link.to} leftSection={link.icon}>
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function NavLink({ label, to, active }: { label: string; to: string; active: boolean }) {
  return (
    <Link to={to} className={classes.item} data-active={active || undefined}>
      {label}
    </Link>
  );
}

function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to ${next} theme`}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Switch to ${next} theme`} onClick={() => setColorScheme(next)}>
        {scheme === 'dark' ? <IconSun size={19} stroke={1.6} /> : <IconMoon size={19} stroke={1.6} />}
      </ActionIcon>
    </Tooltip>
  );
}

function UserMenu() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const [infoOpen, setInfoOpen] = useState(false);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  const initials = `${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`.toUpperCase() || user.username.slice(0, 2).toUpperCase();

  const onLogout = async () => {
    try {
      await logout();
    } catch (error) {
      toastError(error);
    }
    await navigate({ to: '/login/' });
  };

  return (
    <>
      <Menu position="bottom-end" shadow="md" width={240}>
        <Menu.Target>
          <UnstyledButton className={classes.user} aria-label={name}>
            <Avatar size={30} radius="xl" color="meridian" variant="filled">
              {initials}
            </Avatar>
            <Text size="sm" fw={550} visibleFrom="md" aria-hidden>
              {name}
            </Text>
            <IconChevronDown size={14} className={classes.chevron} aria-hidden />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)">
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              {user.email}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item leftSection={<IconInfoCircle size={16} />} onClick={() => setInfoOpen(true)}>
            Info
          </Menu.Item>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void onLogout()}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <UserInfoModal opened={infoOpen} onClose={() => setInfoOpen(false)} />
    </>
  );
}

/** The top navigation bar: brand, the product's menus, theme toggle and the user menu. */
export function NavBar() {
  const { user, featureFlags } = useBootstrap();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const menu = menuFor((perm, view) => hasPermission(user, perm, view), featureFlags);
  const settings = menu.filter((m) => m.name === 'Settings');

  return (
    <nav className={classes.header} aria-label="Main">
      <Link to="/" className={classes.brand}>
        <BrandMark />
        Meridian
      </Link>
      <div className={classes.nav}>
        {menu
          .filter((m) => m.name !== 'Settings')
          .map((item) => (
            <NavItem key={item.name} item={item} path={path} />
          ))}
      </div>
      <div className={classes.right}>
        <div className={classes.nav}>
          {settings.map((item) => (
            <NavItem key={item.name} item={item} path={path} />
          ))}
        </div>
        <ThemeToggle />
        <UserMenu />
      </div>
    </nav>
  );
}
