import { blogLink, socialLinks } from '../content/site';

/** External links to our social accounts and blog (footer and /support). */
export function SocialLinks({
  label = 'Follow us',
  withBlog = true,
}: {
  label?: string;
  withBlog?: boolean;
}) {
  const links = withBlog ? [...socialLinks, blogLink] : socialLinks;
  return (
    <nav aria-label={label} className="pub-social">
      <ul className="pub-social__list">
        {links.map((link) => (
          <li key={link.href}>
            <a className="pub-social__link" href={link.href} rel="noopener noreferrer">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
