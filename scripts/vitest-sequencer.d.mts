import { BaseSequencer } from 'vitest/node';

export declare class LongestFirstSequencer extends BaseSequencer {}
