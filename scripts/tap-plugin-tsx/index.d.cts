export declare const importLoader: string;
export declare const preload: boolean;
