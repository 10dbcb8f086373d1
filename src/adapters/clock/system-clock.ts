import type { Clock } from '../../service/ports/index.js';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
