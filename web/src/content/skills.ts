/**
 * The skills on the public pages (spec §1): the 12 words of the landing page's
 * carousel, and the seven skill areas of /faqs with their supporting traits.
 * The seven areas are also the shop's categories (spec §9); their names and traits
 * live in shared/src/domain/skills.ts (the catalogue checks items against them).
 * Copy written for this product; test/unit/publicContent.test.ts checks counts and duplicates.
 */

import { type Category, traitsByCategory } from '@shared/domain/skills';

/** The landing page's rotating words, in the spec's order. */
export const carouselSkills: readonly string[] = [
  'Sales',
  'Leadership',
  'Negotiation',
  'Communication',
  'Critical Thinking',
  'Presenting',
  'Strategy',
  'Execution',
  'Time Management',
  'Goal Setting',
  'Entrepreneurship',
  'Decision Making',
];

export interface SkillArea {
  /** Anchor on /faqs (`/faqs#attitude`). */
  id: string;
  name: Category;
  summary: string;
  traits: readonly string[];
}

export const skillAreas: readonly SkillArea[] = [
  {
    id: 'attitude',
    name: 'Attitude',
    summary:
      'How people approach their work and their own growth: the habits that decide whether a course gets finished and a setback becomes a lesson.',
    traits: traitsByCategory.Attitude,
  },
  {
    id: 'communication',
    name: 'Communication',
    summary:
      'Getting ideas across and taking them in, one to one, in writing and in front of a room. Most of a working day is spent here.',
    traits: traitsByCategory.Communication,
  },
  {
    id: 'critical-thinking',
    name: 'Critical Thinking',
    summary:
      'Reasoning from evidence to a sound decision: framing the problem, weighing options and knowing what you do not yet know.',
    traits: traitsByCategory['Critical Thinking'],
  },
  {
    id: 'emotional-intelligence',
    name: 'Emotional Intelligence',
    summary:
      'Understanding and managing your own emotions and reading other people’s, so pressure and disagreement do not get in the way of good work.',
    traits: traitsByCategory['Emotional Intelligence'],
  },
  {
    id: 'execution',
    name: 'Execution',
    summary:
      'Turning plans into finished work: choosing what matters, planning it, and following through until it ships.',
    traits: traitsByCategory.Execution,
  },
  {
    id: 'leadership',
    name: 'Leadership',
    summary:
      'Setting direction and helping other people do their best work, whether or not you have a title that says so.',
    traits: traitsByCategory.Leadership,
  },
  {
    id: 'relationship',
    name: 'Relationship',
    summary:
      'Building and keeping the working relationships that everything else runs on: with teammates, customers and partners.',
    traits: traitsByCategory.Relationship,
  },
];
