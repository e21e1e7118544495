import type { Language } from './enums';

/** The texts of a package a reader sees: the Hebrew ones (`name`, `description`) and the optional English ones. */
export interface PlanTexts {
  name: string;
  description: string;
  nameEn?: string;
  descriptionEn?: string;
}

/**
 * A package's name and description in the reader's language, each falling back to the other language's text when
 * staff gave none in this one (docs/adr/0075-demo-catalogue-and-bilingual-packages.md). Both UIs show packages
 * through it, so a Hebrew reader and an English reader never see a blank where the other language has words.
 */
export function planTextIn(plan: PlanTexts, language: Language): { name: string; description: string } {
  const english = { name: plan.nameEn?.trim() ?? '', description: plan.descriptionEn?.trim() ?? '' };
  const hebrew = { name: plan.name.trim(), description: plan.description.trim() };
  const [first, second] = language === 'en' ? [english, hebrew] : [hebrew, english];
  return { name: first.name || second.name, description: first.description || second.description };
}
