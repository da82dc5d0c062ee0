/**
 * A destination that refuses writes until a known time (BigQuery's daily load-job quota): the run
 * pauses with the checkpoint where the last write left it, as for the API's own limits; it has not
 * failed, and the first run after `pausedUntil` continues from there.
 */
import type { PauseCause } from '../../contract/pause-text';

export class DestinationPause extends Error {
  constructor(
    message: string,
    readonly pausedUntil: number,
    readonly pauseFor: PauseCause,
  ) {
    super(message);
    this.name = 'DestinationPause';
  }
}
