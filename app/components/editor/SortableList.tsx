import {
  closestCenter,
  DndContext,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Form } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "~/texts";

export interface MoveTarget {
  /** What is moved: category, question, answer, attribute, attributeAnswer. */
  kind: string;
  id: number;
  newPosition: number;
}

interface SortableListProps<T> {
  items: T[];
  getId: (item: T) => number;
  getLabel: (item: T) => string;
  /** Renders one item at its place in the list; `handle` is the drag handle and the move buttons. */
  renderItem: (item: T, handle: ReactNode, index: number) => ReactNode;
  /** Persists a move; resolves false when it failed, and the item goes back to its old place. */
  onMove: (target: MoveTarget) => Promise<boolean>;
  kind: string;
  disabled?: boolean;
  className?: string;
  label: string;
  /** More hidden fields for the move buttons' form posts (what the page's action needs besides the item). */
  formFields?: Record<string, string | number>;
}

/** An item picked up by keyboard, and the order the list had before, which Escape brings back. */
interface Lifted {
  id: number;
  before: number[];
}

function SortableItem({
  id,
  children,
  disabled,
  lifted,
  roleDescription,
}: {
  id: number;
  disabled?: boolean;
  lifted: boolean;
  /** What a screen reader calls the handle, in the page's language (the library's own word is English). */
  roleDescription: string;
  children: (handle: { attributes: object; listeners: object | undefined }) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled,
    attributes: { roleDescription },
  });
  return (
    <li
      ref={setNodeRef}
      className={`sortable__item${isDragging || lifted ? " sortable__item--dragging" : ""}${lifted ? " sortable__item--held" : ""}`}
      // Moved, never stretched: the dragged card keeps its own size over a taller or shorter neighbour.
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children({ attributes, listeners })}
    </li>
  );
}

/**
 * A list that can be reordered by mouse, by keyboard (focus the handle, Space, arrows, Space) and,
 * without JavaScript, by move-up and move-down buttons that post to the page. A failed move returns the
 * item to where it was.
 *
 * The mouse drags through the drag library. The keyboard moves the item itself, one place per arrow key, in
 * the list's own order (decision 063): the library's keyboard moves worked out the place from rects and the
 * page's scroll position, and on a slow device, with the page scrolling under the item, named the wrong place
 * or none.
 */
export function SortableList<T>({
  items,
  getId,
  getLabel,
  renderItem,
  onMove,
  kind,
  disabled,
  className,
  label,
  formFields,
}: SortableListProps<T>) {
  const { t } = useTranslation();
  const [order, setOrder] = useState(() => items.map(getId));
  const byId = useMemo(() => new Map(items.map((i) => [getId(i), i])), [items, getId]);
  const [lifted, setLifted] = useState<Lifted | null>(null);
  // What the keyboard moves say, read out by screen readers (the mouse's are the drag library's).
  const [said, setSaid] = useState("");
  const handles = useRef(new Map<number, HTMLButtonElement>());
  // The list takes the server's order when that order changed, not each time the page draws again: a page
  // drawn between a move and the data read after it would put the moved item back for a moment (and under
  // a held item, for good). New data waits while an item is held: put back where it was, the list takes it
  // then; dropped somewhere new, the move's own save reads it again.
  const served = useRef(order.join());
  useEffect(() => {
    const ids = items.map(getId);
    if (ids.join() === served.current || lifted) return;
    served.current = ids.join();
    setOrder(ids);
  }, [items, getId, lifted]);
  // The held item's handle keeps the focus where the list moved it, and stays in view.
  useEffect(() => {
    const handle = lifted ? handles.current.get(lifted.id) : undefined;
    if (!handle) return;
    if (document.activeElement !== handle) handle.focus({ preventScroll: true });
    handle.scrollIntoView({ block: "nearest" });
  }, [lifted, order]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const move = async (id: number, to: number) => {
    const from = order.indexOf(id);
    if (from === -1 || to < 0 || to >= order.length || from === to) return;
    const previous = order;
    setOrder(arrayMove(order, from, to));
    const ok = await onMove({ kind, id, newPosition: to });
    if (!ok) setOrder(previous);
  };

  const name = (id: number | string) => {
    const item = byId.get(Number(id));
    return item ? getLabel(item) : "";
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("dnd.picked", { item: name(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t("dnd.over", { item: name(active.id), position: order.indexOf(Number(over.id)) + 1 })
        : t("dnd.outside", { item: name(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t("dnd.dropped", { item: name(active.id), position: order.indexOf(Number(over.id)) + 1 })
        : t("dnd.outside", { item: name(active.id) }),
    onDragCancel: ({ active }) => t("dnd.cancelled", { item: name(active.id) }),
  };

  const onHandleKey = (id: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const { key } = event;
    const place = (at: number) => ({ item: name(id), position: at + 1 });
    if (!lifted) {
      if (key !== " " && key !== "Enter") return;
      event.preventDefault();
      setLifted({ id, before: order });
      setSaid(t("dnd.picked", { item: name(id) }));
      return;
    }
    if (lifted.id !== id) return;
    if (key === "ArrowUp" || key === "ArrowDown") {
      event.preventDefault();
      const from = order.indexOf(id);
      const to = Math.min(Math.max(from + (key === "ArrowDown" ? 1 : -1), 0), order.length - 1);
      if (to !== from) setOrder(arrayMove(order, from, to));
      setSaid(t("dnd.over", place(to)));
    } else if (key === " " || key === "Enter") {
      event.preventDefault();
      const to = order.indexOf(id);
      const { before } = lifted;
      setLifted(null);
      setSaid(t("dnd.dropped", place(to)));
      if (to === before.indexOf(id)) return;
      served.current = items.map(getId).join();
      void onMove({ kind, id, newPosition: to }).then((ok) => {
        if (!ok) setOrder(before);
      });
    } else if (key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };
  const cancel = () => {
    if (!lifted) return;
    setOrder(lifted.before);
    setLifted(null);
    setSaid(t("dnd.cancelled", { item: name(lifted.id) }));
  };
  // Focus going to another control puts the held item back; a blur without one is the list moving the
  // handle's element, after which the handle gets the focus again.
  const onHandleBlur = (event: FocusEvent<HTMLButtonElement>) => {
    if (event.relatedTarget) cancel();
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    void move(Number(active.id), order.indexOf(Number(over.id)));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("dnd.instructions") } }}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ul className={`sortable ${className ?? ""}`} aria-label={label}>
          {order.map((id, index) => {
            const item = byId.get(id);
            if (!item) return null;
            return (
              <SortableItem
                key={id}
                id={id}
                disabled={disabled}
                lifted={lifted?.id === id}
                roleDescription={t("dnd.roleDescription")}
              >
                {({ attributes, listeners }) =>
                  renderItem(
                    item,
                    disabled ? null : (
                      <span className="sortable__handle-group">
                        <button
                          type="button"
                          className="sortable__handle"
                          // Named by what it does; how to use it is its description (the instructions).
                          aria-label={t("dnd.handle", { item: getLabel(item) })}
                          {...attributes}
                          {...listeners}
                          aria-pressed={
                            lifted?.id === id || (attributes as { "aria-pressed"?: boolean })["aria-pressed"]
                          }
                          ref={(element) => {
                            if (element) handles.current.set(id, element);
                            else handles.current.delete(id);
                          }}
                          onKeyDown={onHandleKey(id)}
                          onBlur={onHandleBlur}
                        >
                          <span aria-hidden="true">⠿</span>
                        </button>
                        <MoveButton
                          kind={kind}
                          id={id}
                          to={index - 1}
                          hidden={index === 0}
                          label={t("dnd.up", { item: getLabel(item) })}
                          onMove={move}
                          fields={formFields}
                          arrow="↑"
                        />
                        <MoveButton
                          kind={kind}
                          id={id}
                          to={index + 1}
                          hidden={index === order.length - 1}
                          label={t("dnd.down", { item: getLabel(item) })}
                          onMove={move}
                          fields={formFields}
                          arrow="↓"
                        />
                      </span>
                    ),
                    index,
                  )
                }
              </SortableItem>
            );
          })}
        </ul>
      </SortableContext>
      <div className="visually-hidden" role="status" aria-live="assertive" aria-atomic="true">
        {said}
      </div>
    </DndContext>
  );
}

function MoveButton({
  kind,
  id,
  to,
  hidden,
  label,
  onMove,
  fields,
  arrow,
}: {
  kind: string;
  id: number;
  to: number;
  hidden: boolean;
  label: string;
  onMove: (id: number, to: number) => Promise<void>;
  fields?: Record<string, string | number>;
  arrow: string;
}) {
  if (hidden) return <span className="sortable__move sortable__move--none" aria-hidden="true" />;
  return (
    <Form
      method="post"
      className="sortable__move-form"
      preventScrollReset
      onSubmit={(event) => {
        event.preventDefault();
        void onMove(id, to);
      }}
    >
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="newPosition" value={to} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="sortable__move" title={label}>
        <span aria-hidden="true">{arrow}</span>
      </button>
    </Form>
  );
}
