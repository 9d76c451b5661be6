/** The part of the npm package xliff (6.4.0, no types of its own) the interchange test uses. */
declare module "xliff/xliff2js" {
  export default function xliff2js(xml: string): Promise<unknown>;
}
