/**
 * Components V2 as the client draws them (messages with the IS_COMPONENTS_V2 flag): containers
 * with their accent bar, sections with their accessory beside the text, text displays in markdown,
 * thumbnails, media galleries, files and separators. Buttons and selects inside them are drawn by
 * the message's own component renderer (`renderChild`), so they are clicked as any other.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { webHref } from '../links';
import { Markdown, type MentionNames } from '../markdown';
import type { Json } from '../types';

/** The types drawn here. */
export const LAYOUT_COMPONENT_TYPES: ReadonlySet<number> = new Set([9, 10, 11, 12, 13, 14, 17]);

type FetchFile = (url: string) => Promise<Blob>;

/** A message file shown in place: fetched with the user's token (slashd serves files to readers only), shown from a blob URL. */
export function FileImage({
  url,
  alt,
  width,
  height,
  fetchFile,
  className = 'attachment-image',
}: {
  url: string;
  alt: string;
  width?: number | undefined;
  height?: number | undefined;
  fetchFile: FetchFile;
  className?: string;
}) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    fetchFile(url).then(
      (blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (!src) return null;
  return <img class={className} src={src} alt={alt} width={width} height={height} />;
}

export interface LayoutProps {
  component: Json;
  names: MentionNames;
  fetchFile?: FetchFile | undefined;
  /** Draws a nested component (a button, a select, an action row, or one of these). */
  renderChild: (component: Json, key: number) => ComponentChildren;
}

/** A v10 color (an RGB integer) as CSS. */
export function colorOf(color: unknown): string | undefined {
  return typeof color === 'number' ? `#${color.toString(16).padStart(6, '0')}` : undefined;
}

/** An unfurled media item: a file of the message (drawn in place), or a link to any other URL. */
function Media({
  media,
  alt,
  fetchFile,
  className,
}: {
  media: Json;
  alt: string;
  fetchFile?: FetchFile | undefined;
  className: string;
}) {
  const isFile = typeof media?.attachment_id === 'string' && typeof media.url === 'string';
  if (isFile && fetchFile) {
    return (
      <FileImage
        url={media.url}
        alt={alt}
        width={media.width}
        height={media.height}
        fetchFile={fetchFile}
        className={className}
      />
    );
  }
  const href = webHref(media?.url);
  return href ? (
    <a class={`${className} media-link`} href={href} target="_blank" rel="noopener noreferrer">
      {alt || href}
    </a>
  ) : (
    <span class={`${className} media-link`}>{alt || String(media?.url ?? '')}</span>
  );
}

function Container({ component, renderChild }: LayoutProps) {
  const color = colorOf(component.accent_color);
  return (
    <section
      class={component.spoiler ? 'v2-container spoiler-container' : 'v2-container'}
      style={color ? { borderLeftColor: color } : undefined}
      aria-label="Container"
    >
      {(component.components ?? []).map((child: Json, i: number) => renderChild(child, i))}
    </section>
  );
}

function Section({ component, renderChild }: LayoutProps) {
  return (
    <div class="v2-section">
      <div class="v2-section-text">
        {(component.components ?? []).map((child: Json, i: number) => renderChild(child, i))}
      </div>
      {component.accessory && <div class="v2-section-accessory">{renderChild(component.accessory, 0)}</div>}
    </div>
  );
}

function Gallery({ component, fetchFile }: LayoutProps) {
  const items: Json[] = component.items ?? [];
  return (
    <div class={`v2-gallery columns-${Math.min(items.length, 3)}`}>
      {items.map((item, i) => (
        <Media
          key={i}
          media={item.media}
          alt={item.description ?? ''}
          fetchFile={fetchFile}
          className="v2-gallery-item"
        />
      ))}
    </div>
  );
}

function FileBlock({ component }: LayoutProps) {
  const name: string = component.name ?? String(component.file?.url ?? '').replace(/^attachment:\/\//, '');
  const size = typeof component.size === 'number' ? ` (${Math.ceil(component.size / 1024)} KB)` : '';
  const href = webHref(component.file?.url);
  return (
    <div class="v2-file">
      <span class="v2-file-icon" aria-hidden="true" />
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {name}
        </a>
      ) : (
        name
      )}
      {size}
    </div>
  );
}

/** One components V2 component. */
export function LayoutComponent(props: LayoutProps): ComponentChildren {
  const { component, names, fetchFile } = props;
  switch (component.type) {
    case 17:
      return <Container {...props} />;
    case 9:
      return <Section {...props} />;
    case 10:
      return (
        <div class="v2-text">
          <Markdown text={String(component.content ?? '')} names={names} />
        </div>
      );
    case 11:
      return (
        <Media
          media={component.media}
          alt={component.description ?? ''}
          fetchFile={fetchFile}
          className="v2-thumbnail"
        />
      );
    case 12:
      return <Gallery {...props} />;
    case 13:
      return <FileBlock {...props} />;
    case 14:
      return component.divider === false ? (
        <div class={`v2-space spacing-${component.spacing === 2 ? 'large' : 'small'}`} role="presentation" />
      ) : (
        <hr class={`v2-separator spacing-${component.spacing === 2 ? 'large' : 'small'}`} />
      );
    default:
      return null;
  }
}
