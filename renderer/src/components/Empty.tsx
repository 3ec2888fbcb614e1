// Empty states teach: they say what would appear here and how it gets there.
export function Empty({ title, children, icon = '◇' }: { title: string; children: React.ReactNode; icon?: string }) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      <h2>{title}</h2>
      <div className="empty-body">{children}</div>
    </div>
  );
}
