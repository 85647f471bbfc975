/**
 * The skills on the public pages (spec §1): the 12 words of the landing page's
 * carousel, and the seven skill areas of /faqs with their supporting traits.
 * The seven areas are also the shop's categories (spec §9). Copy written for
 * this product; test/unit/publicContent.test.ts checks counts and duplicates.
 */

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
  name: string;
  summary: string;
  traits: readonly string[];
}

export const skillAreas: readonly SkillArea[] = [
  {
    id: 'attitude',
    name: 'Attitude',
    summary:
      'How people approach their work and their own growth: the habits that decide whether a course gets finished and a setback becomes a lesson.',
    traits: [
      'Adaptability',
      'Curiosity',
      'Growth Mindset',
      'Resilience',
      'Optimism',
      'Initiative',
      'Persistence',
      'Self-Discipline',
      'Humility',
      'Patience',
      'Open-Mindedness',
      'Work Ethic',
      'Coachability',
      'Gratitude',
    ],
  },
  {
    id: 'communication',
    name: 'Communication',
    summary:
      'Getting ideas across and taking them in, one to one, in writing and in front of a room. Most of a working day is spent here.',
    traits: [
      'Active Listening',
      'Public Speaking',
      'Presenting',
      'Business Writing',
      'Storytelling',
      'Persuasion',
      'Negotiation',
      'Giving Feedback',
      'Receiving Feedback',
      'Clarity',
      'Meeting Facilitation',
      'Nonverbal Communication',
      'Asking Good Questions',
      'Difficult Conversations',
      'Cross-Cultural Communication',
    ],
  },
  {
    id: 'critical-thinking',
    name: 'Critical Thinking',
    summary:
      'Reasoning from evidence to a sound decision: framing the problem, weighing options and knowing what you do not yet know.',
    traits: [
      'Problem Solving',
      'Decision Making',
      'Analytical Reasoning',
      'Data Literacy',
      'Logical Reasoning',
      'Research',
      'Systems Thinking',
      'Creativity',
      'Questioning Assumptions',
      'Root Cause Analysis',
      'Risk Assessment',
      'Strategic Thinking',
      'Evaluating Evidence',
      'Innovation',
    ],
  },
  {
    id: 'emotional-intelligence',
    name: 'Emotional Intelligence',
    summary:
      'Understanding and managing your own emotions and reading other people’s, so pressure and disagreement do not get in the way of good work.',
    traits: [
      'Self-Awareness',
      'Self-Regulation',
      'Empathy',
      'Intrinsic Motivation',
      'Stress Management',
      'Social Awareness',
      'Compassion',
      'Mindfulness',
      'Authenticity',
      'Integrity',
      'Composure',
      'Reading the Room',
      'Handling Criticism',
      'Well-Being',
    ],
  },
  {
    id: 'execution',
    name: 'Execution',
    summary:
      'Turning plans into finished work: choosing what matters, planning it, and following through until it ships.',
    traits: [
      'Time Management',
      'Goal Setting',
      'Prioritization',
      'Planning',
      'Project Management',
      'Focus',
      'Follow-Through',
      'Accountability',
      'Attention to Detail',
      'Organization',
      'Resourcefulness',
      'Productivity',
      'Process Improvement',
      'Meeting Deadlines',
      'Execution Under Pressure',
    ],
  },
  {
    id: 'leadership',
    name: 'Leadership',
    summary:
      'Setting direction and helping other people do their best work, whether or not you have a title that says so.',
    traits: [
      'Vision',
      'Strategy',
      'Coaching',
      'Mentoring',
      'Delegation',
      'Motivating Others',
      'Change Management',
      'Leading Teams',
      'Inclusive Leadership',
      'Developing Talent',
      'Setting Expectations',
      'Influence',
      'Entrepreneurship',
      'Courage',
      'Managing Performance',
    ],
  },
  {
    id: 'relationship',
    name: 'Relationship',
    summary:
      'Building and keeping the working relationships that everything else runs on: with teammates, customers and partners.',
    traits: [
      'Teamwork',
      'Collaboration',
      'Networking',
      'Building Trust',
      'Conflict Resolution',
      'Rapport',
      'Customer Focus',
      'Sales',
      'Relationship Management',
      'Respect',
      'Reliability',
      'Diplomacy',
      'Generosity',
      'Stakeholder Management',
    ],
  },
];
