// Placeholder until the Chinese dictionary lands: falls back to English key by key.
import type { Key } from './en';
export const zhCN = {} as Record<Key, string>;
