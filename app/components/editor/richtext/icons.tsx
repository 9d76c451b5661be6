/** Small line icons of the toolbar; decorative, the buttons carry the names. */
const paths = {
  undo: "M9 7H4V2 M4 7c2-3 5-4.5 8.5-4 4 .6 7 4 7 8s-3.4 8-8 8c-3 0-5.5-1.3-7-3.5",
  redo: "M15 7h5V2 M20 7c-2-3-5-4.5-8.5-4-4 .6-7 4-7 8s3.4 8 8 8c3 0 5.5-1.3 7-3.5",
  alignLeft: "M3 5h18 M3 10h12 M3 15h18 M3 20h12",
  alignCenter: "M3 5h18 M6 10h12 M3 15h18 M6 20h12",
  alignRight: "M3 5h18 M9 10h12 M3 15h18 M9 20h12",
  alignJustify: "M3 5h18 M3 10h18 M3 15h18 M3 20h18",
  bulletList: "M9 6h12 M9 12h12 M9 18h12 M4 6h.01 M4 12h.01 M4 18h.01",
  orderedList: "M10 6h11 M10 12h11 M10 18h11 M4 4v4 M3 14h2.5L3 18h3",
  link: "M10 14a4 4 0 0 0 5.7 0l3.5-3.5a4 4 0 0 0-5.7-5.7L12 6.3 M14 10a4 4 0 0 0-5.7 0l-3.5 3.5a4 4 0 0 0 5.7 5.7L12 17.7",
  unlink:
    "M10 14a4 4 0 0 0 5.7 0l3.5-3.5a4 4 0 0 0-5.7-5.7L12 6.3 M14 10a4 4 0 0 0-5.7 0l-3.5 3.5a4 4 0 0 0 5.7 5.7L12 17.7 M3 3l18 18",
  textColor: "M6 17L12 3l6 14 M8.5 11h7",
  backgroundColor: "M14 4l6 6-8 8H6v-6z M4 20h7",
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={paths[name]} />
    </svg>
  );
}
