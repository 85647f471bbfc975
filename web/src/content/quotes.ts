/**
 * The quote banner of /login (spec §2: a random one of about 47, on
 * non-mobile screens). Only well-known quotations whose wording and author are
 * documented; kept short so one fits the banner.
 */

export interface Quote {
  text: string;
  author: string;
}

export const quotes: readonly Quote[] = [
  {
    text: 'The more that you read, the more things you will know. The more that you learn, the more places you’ll go.',
    author: 'Dr. Seuss',
  },
  {
    text: 'Education is the most powerful weapon which you can use to change the world.',
    author: 'Nelson Mandela',
  },
  {
    text: 'The beautiful thing about learning is that nobody can take it away from you.',
    author: 'B.B. King',
  },
  { text: 'I have no special talents. I am only passionately curious.', author: 'Albert Einstein' },
  {
    text: 'The important thing is not to stop questioning. Curiosity has its own reason for existing.',
    author: 'Albert Einstein',
  },
  {
    text: 'Wisdom is not a product of schooling but of the lifelong attempt to acquire it.',
    author: 'Albert Einstein',
  },
  {
    text: 'Learning is not attained by chance, it must be sought for with ardor and attended to with diligence.',
    author: 'Abigail Adams',
  },
  {
    text: 'The mind does not require filling like a bottle, but rather, like wood, it only requires kindling.',
    author: 'Plutarch',
  },
  { text: 'Knowledge itself is power.', author: 'Francis Bacon' },
  {
    text: 'Reading maketh a full man; conference a ready man; and writing an exact man.',
    author: 'Francis Bacon',
  },
  {
    text: 'Some books are to be tasted, others to be swallowed, and some few to be chewed and digested.',
    author: 'Francis Bacon',
  },
  { text: 'In learning you will teach, and in teaching you will learn.', author: 'Phil Collins' },
  {
    text: 'Learning without thought is labor lost; thought without learning is perilous.',
    author: 'Confucius',
  },
  {
    text: 'Self-education is, I firmly believe, the only kind of education there is.',
    author: 'Isaac Asimov',
  },
  { text: 'Leadership and learning are indispensable to each other.', author: 'John F. Kennedy' },
  {
    text: 'Spoon feeding in the long run teaches us nothing but the shape of the spoon.',
    author: 'E. M. Forster',
  },
  {
    text: 'For the things we have to learn before we can do them, we learn by doing them.',
    author: 'Aristotle',
  },
  { text: 'All men by nature desire to know.', author: 'Aristotle' },
  {
    text: 'Curiosity is one of the permanent and certain characteristics of a vigorous intellect.',
    author: 'Samuel Johnson',
  },
  {
    text: 'Knowledge is of two kinds. We know a subject ourselves, or we know where we can find information upon it.',
    author: 'Samuel Johnson',
  },
  { text: 'A little learning is a dangerous thing.', author: 'Alexander Pope' },
  {
    text: 'Education is our passport to the future, for tomorrow belongs only to the people who prepare for it today.',
    author: 'Malcolm X',
  },
  { text: 'Your most unhappy customers are your greatest source of learning.', author: 'Bill Gates' },
  { text: 'Everyone you will ever meet knows something you don’t.', author: 'Bill Nye' },
  {
    text: 'Knowing is not enough; we must apply. Willing is not enough; we must do.',
    author: 'Johann Wolfgang von Goethe',
  },
  {
    text: 'It is what we think we know already that often prevents us from learning.',
    author: 'Claude Bernard',
  },
  {
    text: 'The love of learning, the sequestered nooks, and all the sweet serenity of books.',
    author: 'Henry Wadsworth Longfellow',
  },
  {
    text: 'A mind needs books as a sword needs a whetstone, if it is to keep its edge.',
    author: 'George R. R. Martin',
  },
  {
    text: 'Research is formalized curiosity. It is poking and prying with a purpose.',
    author: 'Zora Neale Hurston',
  },
  {
    text: 'A man of genius makes no mistakes. His errors are volitional and are the portals of discovery.',
    author: 'James Joyce',
  },
  { text: 'If I have seen further it is by standing on the shoulders of Giants.', author: 'Isaac Newton' },
  { text: 'The whole purpose of education is to turn mirrors into windows.', author: 'Sydney J. Harris' },
  { text: 'Education’s purpose is to replace an empty mind with an open one.', author: 'Malcolm Forbes' },
  { text: 'The good life is one inspired by love and guided by knowledge.', author: 'Bertrand Russell' },
  {
    text: 'The only man who is educated is the man who has learned how to learn; the man who has learned how to adapt and change.',
    author: 'Carl Rogers',
  },
  {
    text: 'The capacity to learn is a gift; the ability to learn is a skill; the willingness to learn is a choice.',
    author: 'Brian Herbert',
  },
  {
    text: 'You don’t learn to walk by following rules. You learn by doing, and by falling over.',
    author: 'Richard Branson',
  },
  {
    text: 'In the beginner’s mind there are many possibilities, but in the expert’s there are few.',
    author: 'Shunryu Suzuki',
  },
  {
    text: 'The function of education is to teach one to think intensively and to think critically.',
    author: 'Martin Luther King Jr.',
  },
  {
    text: 'Intelligence plus character—that is the goal of true education.',
    author: 'Martin Luther King Jr.',
  },
  { text: 'One child, one teacher, one book and one pen can change the world.', author: 'Malala Yousafzai' },
  {
    text: 'There are no secrets to success. It is the result of preparation, hard work, and learning from failure.',
    author: 'Colin Powell',
  },
  { text: 'Failure is only the opportunity more intelligently to begin again.', author: 'Henry Ford' },
  {
    text: 'Formal education will make you a living; self-education will make you a fortune.',
    author: 'Jim Rohn',
  },
  { text: 'As long as you live, keep learning how to live.', author: 'Seneca' },
  { text: 'I am learning all the time. The tombstone will be my diploma.', author: 'Eartha Kitt' },
  { text: 'Practice is the best of all instructors.', author: 'Publilius Syrus' },
];

/** One quote at random (a new one on each visit). */
export function randomQuote(random: () => number = Math.random): Quote {
  const index = Math.min(quotes.length - 1, Math.floor(random() * quotes.length));
  return quotes[index] as Quote;
}
