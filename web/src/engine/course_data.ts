// The course data of core/data/ as text. The engine's module does not carry it (it is a third of the
// page's first download, and the first drawing needs none of it): each file is its own chunk, loaded
// the first time the quiz, the lesson exercises or the planner need it. The quiz card reads the bank
// from the same chunk.
const FILES = {
  quiz_bank: () => import('../../../core/data/quiz_bank.json?raw'),
  lesson_text: () => import('../../../core/data/lesson_text.json?raw'),
  planner_text: () => import('../../../core/data/planner_text.json?raw'),
};

export type CourseFile = keyof typeof FILES;
export const COURSE_FILES = Object.keys(FILES) as CourseFile[];

const loading = new Map<CourseFile, Promise<string>>();

/** The text of core/data/NAME.json, loaded once; a failed load (offline, redeployed) is tried again. */
export function courseText(name: CourseFile): Promise<string> {
  let text = loading.get(name);
  if (!text) {
    text = FILES[name]().then(
      (m) => m.default,
      (e: unknown) => {
        loading.delete(name);
        throw e;
      },
    );
    loading.set(name, text);
  }
  return text;
}
