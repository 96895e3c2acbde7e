export declare function settings(): void;
