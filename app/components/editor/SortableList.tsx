import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Form } from "@remix-run/react";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface MoveTarget {
  /** What is moved: category, question, answer, attribute, attributeAnswer. */
  kind: string;
  id: number;
  newPosition: number;
}

/**
 * Up and Down move a picked-up item one place at a time, whatever the items' heights: its centre goes to the
 * centre of the next item in the list. dnd-kit's own getter lines up the items' edges, which past an item
 * much shorter than the one moved (a chart that only says it has no data) leaves it where it was.
 */
const onePlace: KeyboardCoordinateGetter = (event, args) => {
  const down = event.code === "ArrowDown";
  if (!down && event.code !== "ArrowUp") return sortableKeyboardCoordinates(event, args);
  event.preventDefault();
  const { active, over, collisionRect, droppableRects } = args.context;
  const items = (active?.data.current as { sortable?: { items: UniqueIdentifier[] } } | undefined)?.sortable?.items;
  if (!active || !collisionRect || !items) return undefined;
  const target = items[items.indexOf(over?.id ?? active.id) + (down ? 1 : -1)];
  const rect = target === undefined ? undefined : droppableRects.get(target);
  if (!rect) return undefined;
  return { x: rect.left, y: rect.top + rect.height / 2 - collisionRect.height / 2 };
};

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

function SortableItem({
  id,
  children,
  disabled,
}: {
  id: number;
  disabled?: boolean;
  children: (handle: { attributes: object; listeners: object | undefined }) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <li
      ref={setNodeRef}
      className={`sortable__item${isDragging ? " sortable__item--dragging" : ""}`}
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
  useEffect(() => setOrder(items.map(getId)), [items, getId]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: onePlace }),
  );

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
              <SortableItem key={id} id={id} disabled={disabled}>
                {({ attributes, listeners }) =>
                  renderItem(
                    item,
                    disabled ? null : (
                      <span className="sortable__handle-group">
                        <button
                          type="button"
                          className="sortable__handle"
                          aria-label={t("dnd.handle", { item: getLabel(item) })}
                          {...attributes}
                          {...listeners}
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
