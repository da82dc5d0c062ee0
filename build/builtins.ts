/**
 * The standard built-ins the bundle names, bound once as locals of its IIFE (esbuild `inject`
 * turns each free use of these names into a use of the local). Why: the local runtime runs the
 * bundle in a Node vm context, whose global object answers every global name through an
 * interceptor, a call into C++ that V8 cannot optimize away: `Math.imul` or `Number.isFinite` in a
 * per-cell loop paid it on every use, about a third of a 10k backfill's JavaScript time. A
 * local is read from the closure. Same objects, same behaviour, on Google as here: the bundle is
 * evaluated after the runtime installs its clock (`Date`), and nothing reassigns these globals.
 */
const global = globalThis;

export const Array = global.Array;
export const BigInt = global.BigInt;
export const Boolean = global.Boolean;
export const Date = global.Date;
export const Error = global.Error;
export const Intl = global.Intl;
export const JSON = global.JSON;
export const Map = global.Map;
export const Math = global.Math;
export const Number = global.Number;
export const Object = global.Object;
export const Promise = global.Promise;
export const RangeError = global.RangeError;
export const SyntaxError = global.SyntaxError;
export const RegExp = global.RegExp;
export const Set = global.Set;
export const String = global.String;
export const Symbol = global.Symbol;
export const TypeError = global.TypeError;
export const WeakMap = global.WeakMap;
export const WeakSet = global.WeakSet;
export const decodeURIComponent = global.decodeURIComponent;
export const encodeURIComponent = global.encodeURIComponent;
export const isFinite = global.isFinite;
export const isNaN = global.isNaN;
export const parseFloat = global.parseFloat;
export const parseInt = global.parseInt;
