// Keys whose translation is deliberately the same text as in English, with the reason, per language.
// tests/browser/i18n_keys.test.mjs fails on an identical value that is not listed here (a string
// someone forgot to translate) and on a listed key whose value is no longer identical.
// Not imported by the page: it exists for the check and for translators.
import type { Key } from './en';

type Reasons = Partial<Record<Key, string>>;

export const SAME_AS_ENGLISH = {
  'pt-BR': {
    'tab.quiz': '“Quiz” is the usual word in Brazilian online courses',
    'quiz.title': '“Quiz” is the word Brazilian courses use, as for the tab',
    'control.costF': 'op letter plus “forward”, which pt-BR practitioners and the quiz bank keep in English',
    'kind.F': '“Forward”, kept in English as in the quiz bank (“o forward”), plus the op letter',
    'op.forwardHalf': '“forward” is kept in English by the quiz bank and lesson text',
    'op.backwardHalf': '“backward” is kept in English by the quiz bank and lesson text',
    'legend.forward': '“forward” is kept in English by the quiz bank and lesson text',
    'op.mb': '“micro-batch” is the lesson’s pt-BR term; only a placeholder follows',
    'op.rank': '“rank” stays “rank” in pt-BR; only a placeholder follows',
    'timeline.rank': '“rank” stays “rank” in pt-BR; only a placeholder follows',
    'bubble.rankOption': '“rank” stays “rank” in pt-BR; only a placeholder follows',
    'measured.rank': '“rank” stays “rank” in pt-BR, as the timeline’s column heading',
    'table.rank': '“Rank” stays “Rank” in pt-BR (column header)',
    'charts.rank': '“rank” stays “rank” in pt-BR (axis label)',
    'charts.ranks': '“ranks” stays “ranks” in pt-BR (axis label)',
    'charts.microBatches': '“micro-batches” is the lesson’s pt-BR term (axis label)',
    'op.time': 'a formula: t, numbers and an arrow',
    'table.order': 'the “#” column header',
    'planner.rank': 'the “#” column header',
    'compare.groupTitle': 'a schedule name and “makespan”, which the lesson text keeps in English',
    'planner.form.cluster': '“cluster” is the word Portuguese uses for a group of machines',
    'planner.form.gpus': '“GPUs”, the hardware written as it is',
    'element.title': 'schedule names, “ranks” and “micro-batches”, all kept in pt-BR',
    'memory.total': '“Total” is the same word in Portuguese (column header)',
  },
  'zh-CN': {
    'op.rank': '“rank” stays “rank” in the Chinese lesson text; only a placeholder follows',
    'timeline.rank': '“rank” stays “rank” in the Chinese lesson text; only a placeholder follows',
    'bubble.rankOption': '“rank” stays “rank” in the Chinese lesson text; only a placeholder follows',
    'measured.rank': '“rank” stays “rank” in the Chinese lesson text, as a column heading',
    'charts.rank': '“rank” stays “rank” in the Chinese lesson text (axis label)',
    'table.order': 'the “#” column header',
    'planner.rank': 'the “#” column header',
    'compare.groupTitle': 'a schedule name and “makespan”, which the Chinese lesson text keeps in English',
  },
} satisfies Record<'pt-BR' | 'zh-CN', Reasons>;
